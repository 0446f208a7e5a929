package dev.svc.protocol.a2a;

import dev.svc.call.ClientText;
import dev.svc.json.Json;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcError;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.runtime.ServerFault;
import tools.jackson.databind.node.ArrayNode;

/**
 * The A2A v1 errors (§5.4, §9.5), each with its JSON-RPC code and an {@code error.data} array
 * holding one {@code google.rpc.ErrorInfo} whose {@code reason} names the error, as the official
 * SDKs send and expect.
 */
public final class A2aErrors {
  public static final String ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";
  public static final String DOMAIN = "a2a-protocol.org";

  private A2aErrors() {}

  public static JsonRpcException taskNotFound(String id) {
    return error(
        ErrorCodes.TASK_NOT_FOUND, "TASK_NOT_FOUND", "Task not found: " + ClientText.shown(id));
  }

  /** A push config that does not exist: reported as task-not-found, as the official SDK does. */
  public static JsonRpcException pushConfigNotFound(String taskId, String configId) {
    return error(
        ErrorCodes.TASK_NOT_FOUND,
        "TASK_NOT_FOUND",
        "Push notification config not found: "
            + ClientText.shown(configId)
            + " (task "
            + ClientText.shown(taskId)
            + ")");
  }

  public static JsonRpcException taskNotCancelable(String id, TaskState state) {
    return error(
        ErrorCodes.TASK_NOT_CANCELABLE,
        "TASK_NOT_CANCELABLE",
        "Task not cancelable: " + ClientText.shown(id) + " is already " + state.wireName());
  }

  public static JsonRpcException unsupportedOperation(String message) {
    return error(ErrorCodes.UNSUPPORTED_OPERATION, "UNSUPPORTED_OPERATION", message);
  }

  public static JsonRpcException contentTypeNotSupported(String message) {
    return error(ErrorCodes.CONTENT_TYPE_NOT_SUPPORTED, "CONTENT_TYPE_NOT_SUPPORTED", message);
  }

  public static JsonRpcException versionNotSupported(String version) {
    return error(
        ErrorCodes.VERSION_NOT_SUPPORTED,
        "VERSION_NOT_SUPPORTED",
        "The requested A2A protocol version '"
            + ClientText.shown(version)
            + "' is not supported. Supported versions: "
            + String.join(", ", A2aServer.SUPPORTED_VERSIONS));
  }

  public static JsonRpcException invalidParams(String message) {
    return error(ErrorCodes.INVALID_PARAMS, "INVALID_PARAMS", "Invalid params: " + message);
  }

  /**
   * A server fault: {@code -32603} as {@link JsonRpcError#internal} words it, with its {@code
   * {"requestId": …}} data as the one entry of A2A's list of error details.
   */
  public static JsonRpcException internal(ServerFault fault) {
    JsonRpcError error = JsonRpcError.internal(fault);
    return new JsonRpcException(
        new JsonRpcError(
            error.code(), error.message(), error.data().map(d -> Json.NODES.arrayNode().add(d))));
  }

  /** The in-memory task store has no room for a new task: running tasks hold its budget. */
  public static JsonRpcException storeFull(String message) {
    return error(
        ErrorCodes.INTERNAL_ERROR,
        "TASK_STORE_FULL",
        "Internal error: no room for a new task: " + message);
  }

  /** This instance runs and queues as many tasks as its limits allow: a new one must wait. */
  public static JsonRpcException tooManyTasks(String message) {
    return error(
        ErrorCodes.INTERNAL_ERROR, "TOO_MANY_TASKS", "Internal error: too many tasks: " + message);
  }

  /**
   * The shared task store cannot be read or written: {@code -32603} with a message that says so
   * (the store's name and error go to the log only) and, as details, the reason {@code
   * TASK_STORE_UNAVAILABLE} and the request id.
   */
  public static JsonRpcException storeUnavailable(ServerFault fault) {
    ArrayNode data = Json.NODES.arrayNode();
    data.addObject()
        .put("@type", ERROR_INFO)
        .put("reason", "TASK_STORE_UNAVAILABLE")
        .put("domain", DOMAIN);
    JsonRpcError.internal(fault).data().ifPresent(data::add);
    return JsonRpcException.withCode(
        ErrorCodes.INTERNAL_ERROR,
        "Internal error: the task store is unavailable; tasks cannot be read or saved right now,"
            + " try again shortly",
        data);
  }

  private static JsonRpcException error(int code, String reason, String message) {
    ArrayNode data = Json.NODES.arrayNode();
    data.addObject().put("@type", ERROR_INFO).put("reason", reason).put("domain", DOMAIN);
    return JsonRpcException.withCode(code, message, data);
  }
}
