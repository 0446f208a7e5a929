package dev.svc.protocol.mcp;

import dev.svc.protocol.jsonrpc.JsonRpcMessage;
import dev.svc.runtime.ToolInvoker;
import dev.svc.runtime.ToolSearch;
import dev.svc.telemetry.Scope;
import dev.svc.telemetry.Span;
import dev.svc.telemetry.SpanKind;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.telemetry.Telemetry;
import dev.svc.telemetry.Tracer;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The span and duration metric of one MCP request, after the OpenTelemetry MCP semantic
 * conventions: a SERVER span {@code tools/call get_item} whose parent is the trace context in
 * {@code params._meta} ({@code traceparent}, {@code tracestate}) when the client sent one, linked
 * to the HTTP request's span; else a child of the HTTP span.
 */
final class McpTelemetry {
  private static final Set<String> METHODS =
      Set.of(
          "initialize",
          "ping",
          "tools/list",
          "tools/call",
          "prompts/list",
          "prompts/get",
          "resources/list",
          "resources/templates/list",
          "resources/read",
          "resources/subscribe",
          "resources/unsubscribe",
          "completion/complete",
          "logging/setLevel",
          "server/discover",
          "subscriptions/listen");

  private McpTelemetry() {}

  /** One request being answered. */
  record Operation(Span span, Scope scope, String method, String tool, long startNanos) {
    /** Ends the span and records the duration; the outcome is read from the response. */
    void end(ObjectNode response) {
      String errorType = "";
      JsonNode error = response.get("error");
      if (error != null) {
        errorType = error.path("code").asString("");
        if (span.isRecording()) {
          span.set("rpc.response.status_code", errorType);
          span.fail(errorType, error.path("message").asString(""));
        }
      } else if (response.path("result").path("isError").asBoolean(false)) {
        errorType = "tool_error";
        span.fail(errorType, "the tool call failed");
      }
      scope.close();
      span.end();
      SvcMetrics.MCP_DURATION.recordSince(startNanos, method, tool, errorType);
    }
  }

  /**
   * Starts the span of a request and makes it current.
   *
   * @param tools the tools of the project: only their names (and {@code search}) label metrics
   */
  static Operation begin(McpSession session, JsonRpcMessage.Request request, ToolInvoker tools) {
    long started = System.nanoTime();
    String method = METHODS.contains(request.method()) ? request.method() : "_OTHER";
    String tool = "";
    JsonNode params = request.params();
    if (method.equals("tools/call")) {
      String name = params.path("name").asString("");
      if (name.equals(ToolSearch.NAME) || tools.has(name)) {
        tool = name;
      }
    }
    Tracer tracer = Telemetry.tracer();
    if (!tracer.enabled()) {
      return new Operation(Span.NOOP, Scope.NOOP, method, tool, started);
    }
    JsonNode meta = params.path("_meta");
    String target = tool;
    if (method.equals("prompts/get")) {
      target = params.path("name").asString("");
    }
    Span span =
        tracer.startRemote(
            SpanKind.SERVER,
            target.isEmpty() ? method : method + " " + target,
            key ->
                Optional.ofNullable(meta.get(key))
                    .filter(JsonNode::isString)
                    .map(n -> n.asString()),
            true);
    if (span.isRecording()) {
      span.set("mcp.method.name", method)
          .set("mcp.protocol.version", session.protocolVersion())
          .set("network.transport", "tcp")
          .set("network.protocol.name", "http");
      if (!session.id().isEmpty()) {
        span.set("mcp.session.id", session.id());
      }
      JsonNode id = request.id();
      span.set("jsonrpc.request.id", id.isString() ? id.asString() : id.toString());
      if (method.equals("tools/call")) {
        span.set("gen_ai.operation.name", "execute_tool")
            .set("gen_ai.tool.name", params.path("name").asString(""));
      } else if (method.equals("prompts/get")) {
        span.set("gen_ai.prompt.name", target);
      } else if (params.has("uri")) {
        span.set("mcp.resource.uri", params.path("uri").asString(""));
      }
    }
    return new Operation(span, span.activate(), method, tool, started);
  }
}
