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

  /**
   * {@code server.auth}: the request has no acceptable access token (HTTP 401). Auth codes are the
   * HTTP statuses: outside the range JSON-RPC and MCP 2026-07-28 reserve, legal in every protocol
   * version (ToolHive does the same for 429).
   */
  public static final int UNAUTHORIZED = 401;

  /** {@code server.auth}: the access token lacks a required scope (HTTP 403). */
  public static final int INSUFFICIENT_SCOPE = 403;

  /** {@code server.auth}: the token cannot be checked now (the issuer's keys are out of reach). */
  public static final int AUTHORIZATION_UNAVAILABLE = 503;

  /**
   * A tool's {@code rate_limit} refused the call (HTTP 429): the HTTP status, like the auth codes
   * and ToolHive's; {@code data.retryAfterSeconds} says when to retry.
   */
  public static final int RATE_LIMITED = 429;

  /** MCP: no resource at the URI ({@code resources/read}). */
  public static final int RESOURCE_NOT_FOUND = -32002;

  /**
   * MCP 2026-07-28: a standard header ({@code MCP-Protocol-Version}, {@code Mcp-Method}, {@code
   * Mcp-Name}, {@code Mcp-Param-*}) is missing or differs from the body.
   */
  public static final int HEADER_MISMATCH = -32020;

  /** MCP 2026-07-28: the request needs a client capability the client did not declare. */
  public static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

  /** MCP 2026-07-28: the request's protocol version is not served. */
  public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  /** MCP transport: the session is unknown or ended. */
  public static final int SESSION_NOT_FOUND = -32001;

  /** A2A v1 (§5.4, §9.5): no task with the id (or not visible to this agent). */
  public static final int TASK_NOT_FOUND = -32001;

  /** A2A v1: the task is in a terminal state and cannot be canceled. */
  public static final int TASK_NOT_CANCELABLE = -32002;

  /** A2A v1: push notifications are not supported. */
  public static final int PUSH_NOTIFICATION_NOT_SUPPORTED = -32003;

  /** A2A v1: the operation is not supported (e.g. subscribing to a finished task). */
  public static final int UNSUPPORTED_OPERATION = -32004;

  /** A2A v1: a part's media type or the accepted output modes cannot be served. */
  public static final int CONTENT_TYPE_NOT_SUPPORTED = -32005;

  /** A2A v1: the agent produced a response the protocol cannot carry. */
  public static final int INVALID_AGENT_RESPONSE = -32006;

  /** A2A v1: the agent has no extended card. */
  public static final int EXTENDED_AGENT_CARD_NOT_CONFIGURED = -32007;

  /** A2A v1: the client must declare an extension the agent requires. */
  public static final int EXTENSION_SUPPORT_REQUIRED = -32008;

  /** A2A v1: the {@code A2A-Version} the client asked for is not served. */
  public static final int VERSION_NOT_SUPPORTED = -32009;
}
