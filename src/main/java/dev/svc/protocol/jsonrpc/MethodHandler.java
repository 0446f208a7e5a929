package dev.svc.protocol.jsonrpc;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers one JSON-RPC method. Throws {@link JsonRpcException} for protocol errors.
 *
 * @param <C> what the handler needs to know about the caller (session, headers, …)
 */
@FunctionalInterface
public interface MethodHandler<C> {
  JsonNode handle(C caller, ObjectNode params);
}
