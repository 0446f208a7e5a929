package dev.svc.protocol.mcp;

import dev.svc.call.Caller;
import dev.svc.json.Json;
import dev.svc.log.Level;
import dev.svc.protocol.jsonrpc.JsonRpcCodec;
import dev.svc.runtime.ProjectRuntime;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One MCP request being served: its session, the runtime that serves it (read once per request, so
 * that a reload never splits a request between two projects), its caller, and where notifications
 * about it go (the request's own SSE stream, when it has one).
 */
record McpCall(
    McpSession session,
    ProjectRuntime runtime,
    Caller caller,
    Optional<JsonNode> progressToken,
    Consumer<JsonNode> notifier) {

  /**
   * Sends {@code notifications/message} when the session asked for logs at this level: MCP's {@code
   * LoggingMessageNotification}, {@code logger} naming the source ({@code svc}, or {@code
   * script:<tool>}) and {@code data} the message as a string, which every client shows (the MCP
   * Java SDK reads {@code data} as a string and dropped the object svc sent before).
   */
  void log(Level level, String logger, String message) {
    Optional<Level> wanted = session.logLevel();
    if (wanted.isEmpty() || level.number() > wanted.get().number()) {
      return;
    }
    ObjectNode params = Json.NODES.objectNode();
    params.put("level", LogLevels.mcpName(level));
    params.put("logger", logger);
    params.put("data", message);
    notifier.accept(JsonRpcCodec.notification("notifications/message", params));
  }

  /** Whether the request is served under a stateless revision (2026-07-28). */
  boolean stateless() {
    return ProtocolVersions.isStateless(session.protocolVersion());
  }

  /** Sends {@code notifications/progress} when the client gave a progress token. */
  void progress(double progress, double total, String message) {
    progressToken.ifPresent(token -> {
      ObjectNode params = Json.NODES.objectNode();
      params.set("progressToken", token);
      params.put("progress", progress);
      params.put("total", total);
      params.put("message", message);
      notifier.accept(JsonRpcCodec.notification("notifications/progress", params));
    });
  }
}
