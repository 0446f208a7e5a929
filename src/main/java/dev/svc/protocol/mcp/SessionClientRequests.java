package dev.svc.protocol.mcp;

import dev.svc.call.ClientRequest;
import dev.svc.call.ClientRequestException;
import dev.svc.call.ClientRequests;
import dev.svc.model.Execution;
import dev.svc.model.Tool;
import dev.svc.protocol.EventSink;
import dev.svc.protocol.jsonrpc.JsonRpcMessage;
import dev.svc.runtime.ProjectRuntime;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * How a call over a 2025-11-25 (or earlier) session asks its client: the request goes out on the
 * call's own SSE stream and the client POSTs the answer ({@link PendingClientRequests}). Only the
 * capabilities the client declared in {@code initialize} are used; a call answered with plain JSON
 * (the client does not accept {@code text/event-stream}) cannot ask.
 */
final class SessionClientRequests implements ClientRequests {
  private final McpSession session;
  private final Optional<EventSink> stream;

  SessionClientRequests(McpSession session, Optional<EventSink> stream) {
    this.session = session;
    this.stream = stream;
  }

  @Override
  public boolean declares(String capability) {
    return session.client().declares(capability);
  }

  @Override
  public Answer ask(ClientRequest request) {
    if (!declares(request.capability())) {
      return refused(
          "the client did not declare the `"
              + request.capability()
              + "` capability (initialize params.capabilities."
              + request.capability()
              + ")");
    }
    if (stream.isEmpty()) {
      return refused(
          "the request does not accept text/event-stream, the stream on which svc sends "
              + request.method());
    }
    return new Answer.Coming(session.pending().send(request, stream.get()));
  }

  private static Answer refused(String why) {
    return new Answer.Coming(CompletableFuture.failedFuture(new ClientRequestException(why)));
  }

  /**
   * Whether answering {@code request} may ask the client something, so it gets an SSE stream: a
   * {@code tools/call} of a tool with {@code confirm} or a script, from a client that declared a
   * capability to ask with.
   */
  static boolean mayAsk(
      McpSession session, ProjectRuntime runtime, JsonRpcMessage.Request request) {
    if (session.client().declared().isEmpty() || !request.method().equals("tools/call")) {
      return false;
    }
    String name = request.params().path("name").asString("");
    return runtime.tools().tool(name).map(SessionClientRequests::mayAsk).orElse(false);
  }

  /** Whether a call of {@code tool} may ask its client: it has {@code confirm} or a script. */
  static boolean mayAsk(Tool tool) {
    return tool.confirm().isPresent()
        || tool.execution() instanceof Execution.Handler
        || tool.inputMapper().isPresent()
        || tool.outputMapper().isPresent();
  }
}
