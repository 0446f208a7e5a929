package dev.svc.telemetry;

/** The OpenTelemetry span kinds svc uses. */
public enum SpanKind {
  /** Serves a request from outside: HTTP requests, MCP methods. */
  SERVER,
  /** Calls something outside: a database, a model provider. */
  CLIENT,
  /** Work inside svc: a tool call, a pipeline stage, an agent task. */
  INTERNAL
}
