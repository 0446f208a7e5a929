package dev.svc.protocol.jsonrpc;

import java.util.Map;
import java.util.Optional;

/** Routes a request to the handler registered for its method name. */
public final class Dispatcher<C> {
  private final Map<String, MethodHandler<C>> handlers;

  public Dispatcher(Map<String, MethodHandler<C>> handlers) {
    this.handlers = Map.copyOf(handlers);
  }

  public Optional<MethodHandler<C>> handler(String method) {
    return Optional.ofNullable(handlers.get(method));
  }

  /**
   * Runs the request's handler.
   *
   * @throws JsonRpcException from the handler, or method-not-found
   */
  public MethodReply dispatch(C caller, JsonRpcMessage.Request request) {
    MethodHandler<C> handler =
        handler(request.method())
            .orElseThrow(() -> JsonRpcException.methodNotFound(request.method()));
    return handler.handle(caller, request.params());
  }
}
