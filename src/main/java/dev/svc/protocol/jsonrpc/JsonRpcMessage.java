package dev.svc.protocol.jsonrpc;

import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A JSON-RPC 2.0 message received from a client. */
public sealed interface JsonRpcMessage {

  /**
   * A request: it has an id and expects a response.
   *
   * @param id a string or number node, as the client sent it (echoed unchanged)
   * @param params the params object; an empty object when absent
   */
  record Request(JsonNode id, String method, ObjectNode params) implements JsonRpcMessage {}

  /** A notification: no id, no response. */
  record Notification(String method, ObjectNode params) implements JsonRpcMessage {}

  /** A response from the client to a request the server sent. */
  record Response(JsonNode id, Optional<JsonNode> result, Optional<JsonRpcError> error)
      implements JsonRpcMessage {}
}
