package dev.svc.protocol.jsonrpc;

import dev.svc.runtime.ServerFault;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** The {@code error} member of a JSON-RPC response. */
public record JsonRpcError(int code, String message, Optional<JsonNode> data) {
  public static JsonRpcError of(int code, String message) {
    return new JsonRpcError(code, message, Optional.empty());
  }

  /**
   * The answer to a request that failed on the server's side: {@code -32603}, the fault's text
   * (which names the request id) and {@code data.requestId}, so a client can quote the id without
   * parsing the message. The one place MCP and A2A build this error.
   */
  public static JsonRpcError internal(ServerFault fault) {
    return new JsonRpcError(
        ErrorCodes.INTERNAL_ERROR,
        fault.text(),
        Optional.of(JsonNodeFactory.instance.objectNode().put("requestId", fault.requestId())));
  }
}
