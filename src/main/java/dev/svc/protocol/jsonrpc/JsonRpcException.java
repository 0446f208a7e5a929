package dev.svc.protocol.jsonrpc;

import dev.svc.SvcException;
import dev.svc.call.ClientText;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A protocol error to send back as a JSON-RPC error response. Thrown by method handlers; the
 * dispatcher turns it into the response. Use the factory methods so codes stay in one place.
 */
public class JsonRpcException extends SvcException {
  private final JsonRpcError error;

  public JsonRpcException(JsonRpcError error) {
    super(error.message());
    this.error = error;
  }

  public JsonRpcError error() {
    return error;
  }

  public static JsonRpcException invalidParams(String message) {
    return new JsonRpcException(JsonRpcError.of(ErrorCodes.INVALID_PARAMS, message));
  }

  public static JsonRpcException methodNotFound(String method) {
    return new JsonRpcException(
        JsonRpcError.of(
            ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + ClientText.shown(method)));
  }

  public static JsonRpcException invalidRequest(String message) {
    return new JsonRpcException(JsonRpcError.of(ErrorCodes.INVALID_REQUEST, message));
  }

  public static JsonRpcException internal(String message, JsonNode data) {
    return new JsonRpcException(
        new JsonRpcError(ErrorCodes.INTERNAL_ERROR, message, Optional.of(data)));
  }

  public static JsonRpcException withCode(int code, String message) {
    return new JsonRpcException(JsonRpcError.of(code, message));
  }

  public static JsonRpcException withCode(int code, String message, JsonNode data) {
    return new JsonRpcException(new JsonRpcError(code, message, Optional.of(data)));
  }
}
