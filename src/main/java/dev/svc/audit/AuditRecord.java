package dev.svc.audit;

import java.time.Instant;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** One line of the audit trail. Holds no secrets: arguments arrive already redacted. */
public sealed interface AuditRecord {
  Instant time();

  String requestId();

  /** The auth plugin's identity of the caller (e.g. {@code key:3f2a…}), or {@code anonymous}. */
  String caller();

  /** {@code ok}, {@code error} (a failure the caller can fix) or {@code fault} (server fault). */
  String outcome();

  double durationMs();

  /**
   * A tool call, from MCP or from an agent.
   *
   * @param via {@code mcp}, or {@code agent:<name>}
   * @param arguments the arguments as sent, each value redacted unless its input is marked {@code
   *     redact: false}
   * @param error the one-line message of a failure (never values or connection strings)
   */
  record ToolCall(
      Instant time,
      String requestId,
      String caller,
      String via,
      String tool,
      JsonNode arguments,
      String outcome,
      Optional<String> error,
      double durationMs)
      implements AuditRecord {}

  /**
   * An agent task, when it ended.
   *
   * @param state the final A2A state: {@code completed}, {@code failed} or {@code canceled}
   */
  record AgentTask(
      Instant time,
      String requestId,
      String caller,
      String agent,
      String taskId,
      String contextId,
      String state,
      String outcome,
      Optional<String> error,
      double durationMs)
      implements AuditRecord {}
}
