package dev.svc.protocol.jsonrpc;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** The {@code error} member of a JSON-RPC response. */
public record JsonRpcError(int code, String message, Optional<JsonNode> data) {
  public static JsonRpcError of(int code, String message) {
    return new JsonRpcError(code, message, Optional.empty());
  }
}
