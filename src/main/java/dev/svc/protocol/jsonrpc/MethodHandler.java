package dev.svc.protocol.jsonrpc;

import java.util.function.BiFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers one JSON-RPC method. Throws {@link JsonRpcException} for protocol errors.
 *
 * @param <C> what the handler needs to know about the caller (session, headers, …)
 */
@FunctionalInterface
public interface MethodHandler<C> {
  MethodReply handle(C caller, ObjectNode params);

  /** The handler of a method that answers with one JSON result. */
  static <C> MethodHandler<C> result(BiFunction<C, ObjectNode, JsonNode> method) {
    return (caller, params) -> new MethodReply.Result(method.apply(caller, params));
  }
}
