package dev.svc.protocol.jsonrpc;

/** Every JSON-RPC error code svc sends, in one place (JSON-RPC 2.0, MCP and A2A v1). */
public final class ErrorCodes {
  private ErrorCodes() {}

  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int METHOD_NOT_FOUND = -32601;
  public static final int INVALID_PARAMS = -32602;
  public static final int INTERNAL_ERROR = -32603;

  /** A request the client cancelled with {@code notifications/cancelled}. */
  public static final int REQUEST_CANCELLED = -32800;

  /** MCP: no resource at the URI ({@code resources/read}). */
  public static final int RESOURCE_NOT_FOUND = -32002;

  /** MCP transport: the session is unknown or ended. */
  public static final int SESSION_NOT_FOUND = -32001;
}
