package dev.svc.protocol.mcp;

import dev.svc.SvcException;
import dev.svc.call.Caller;
import dev.svc.call.ClientText;
import dev.svc.log.Log;
import dev.svc.log.LogContext;
import dev.svc.protocol.jsonrpc.Dispatcher;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcCodec;
import dev.svc.protocol.jsonrpc.JsonRpcError;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.protocol.jsonrpc.JsonRpcMessage;
import dev.svc.protocol.jsonrpc.MethodReply;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.runtime.ServerFault;
import dev.svc.runtime.ToolServerException;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs MCP requests to their JSON-RPC responses, whatever carries them: binds the caller for the
 * handler, dispatches by method name, traces and measures each request ({@link McpTelemetry}), runs
 * tool calls so that the client can cancel them ({@code notifications/cancelled}) and the server
 * can abort them as it stops, and turns every failure into an error response. The HTTP side (status
 * codes, headers, sessions, SSE) is {@link McpServer}.
 */
final class McpRequests {
  private static final Log LOG = Log.tagged("mcp");

  private final Dispatcher<McpCall> dispatcher;
  private final McpSessions sessions;

  /**
   * @param dispatcher the MCP methods
   * @param sessions the sessions whose calls {@link #abortInFlight} ends
   */
  McpRequests(Dispatcher<McpCall> dispatcher, McpSessions sessions) {
    this.dispatcher = dispatcher;
    this.sessions = sessions;
  }

  /**
   * Runs one request to its response, traced and measured; never throws.
   *
   * @param runtime the project that serves the request, the whole request long
   * @param progressToken the token of {@code params._meta.progressToken}, when the client sent one
   * @param notifier where the notifications about this request go (its stream, when it has one)
   */
  ObjectNode respond(
      McpSession session,
      ProjectRuntime runtime,
      Caller caller,
      JsonRpcMessage.Request request,
      Optional<JsonNode> progressToken,
      Consumer<JsonNode> notifier) {
    McpCall call = call(session, runtime, caller, progressToken, notifier);
    McpTelemetry.Operation operation = McpTelemetry.begin(session, request, runtime.tools());
    ObjectNode response = null;
    try {
      response = answer(call, request);
      return response;
    } finally {
      // answer() turns every exception into a response; only an Error gets here without one
      operation.end(
          response != null
              ? response
              : JsonRpcCodec.error(
                  Optional.of(request.id()),
                  JsonRpcError.of(ErrorCodes.INTERNAL_ERROR, "internal error")));
    }
  }

  /** {@code notifications/cancelled}: ends the named request of the session when it runs here. */
  void notified(McpSession session, JsonRpcMessage.Notification notification) {
    if (notification.method().equals("notifications/cancelled")) {
      JsonNode id = notification.params().get("requestId");
      if (id != null && session.cancel(id)) {
        LOG.debug(
            "request cancelled by the client", "mcp_request", ClientText.shown(id.toString()));
      }
    }
  }

  /**
   * Ends the tool calls still running (the drain limit passed): each is interrupted like a
   * cancelled call, and answered with {@code -32603 server shutting down} and its request id.
   */
  void abortInFlight() {
    sessions.withRequests().forEach(McpSession::abortAll);
  }

  /** A call whose client-bound log messages go to the request's stream, as the session asked. */
  private static McpCall call(
      McpSession session,
      ProjectRuntime runtime,
      Caller caller,
      Optional<JsonNode> progressToken,
      Consumer<JsonNode> notifier) {
    McpCall[] self = new McpCall[1];
    Caller withLog =
        caller
            .withClientLog((level, logger, message) -> self[0].log(level, logger, message))
            .withProgress((fraction, message) -> self[0].progress(fraction, 1, message));
    self[0] = new McpCall(session, runtime, withLog, progressToken, notifier);
    return self[0];
  }

  private ObjectNode answer(McpCall call, JsonRpcMessage.Request request) {
    Optional<JsonNode> id = Optional.of(request.id());
    try {
      JsonNode result =
          ScopedValue.where(LogContext.REQUEST_ID, call.caller().requestId())
              .call(() -> run(call, request));
      return JsonRpcCodec.result(request.id(), result);
    } catch (JsonRpcException e) {
      return JsonRpcCodec.error(id, e.error());
    } catch (CancellationException e) {
      return JsonRpcCodec.error(
          id, JsonRpcError.of(ErrorCodes.REQUEST_CANCELLED, "Request cancelled"));
    } catch (ToolServerException | ServerShuttingDownException e) {
      return JsonRpcCodec.error(
          id, JsonRpcError.internal(new ServerFault(e.getMessage(), call.caller().requestId())));
    } catch (RuntimeException e) {
      LOG.error("request failed", e, "method", request.method());
      return JsonRpcCodec.error(
          id, JsonRpcError.internal(new ServerFault("internal error", call.caller().requestId())));
    }
  }

  /**
   * Runs the handler; tool calls on their own thread so {@code notifications/cancelled} can end
   * them.
   */
  private JsonNode run(McpCall call, JsonRpcMessage.Request request) {
    if (!request.method().equals("tools/call")) {
      return result(dispatcher.dispatch(call, request));
    }
    McpSession.InFlight flight =
        call.session()
            .started(request.id())
            .orElseThrow(() ->
                JsonRpcException.invalidRequest(
                    "Invalid Request: a request with id "
                        + ClientText.shown(request.id().toString())
                        + " is still running in this session; give each request its own id"));
    try {
      JsonNode result = result(dispatcher.dispatch(call, request));
      ended(flight);
      return result;
    } catch (RuntimeException e) {
      ended(flight);
      throw e;
    } finally {
      call.session().finished(request.id(), flight);
    }
  }

  /** The one result of an MCP method: MCP answers a request with one response, never a stream. */
  private static JsonNode result(MethodReply reply) {
    return switch (reply) {
      case MethodReply.Result result -> result.result();
      case MethodReply.Stream stream ->
          throw new SvcException("an MCP method answered with a stream of results");
    };
  }

  /** Why a call that was interrupted ended, when it was: the client or the server stopping. */
  private static void ended(McpSession.InFlight flight) {
    if (flight.aborted()) {
      throw new ServerShuttingDownException();
    }
    if (flight.cancelled()) {
      throw new CancellationException("cancelled by the client");
    }
  }

  /** A call the server ended because it is stopping (the drain limit passed). */
  private static final class ServerShuttingDownException extends SvcException {
    ServerShuttingDownException() {
      super("server shutting down");
    }
  }
}
