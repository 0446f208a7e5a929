package dev.svc.runtime;

import tools.jackson.databind.JsonNode;

/**
 * The result of a tool call: a payload, or a failure the caller (or model) can fix, as a value.
 * Server faults are not outcomes: they are thrown as {@link ToolServerException}.
 */
public sealed interface ToolOutcome {
  record Success(JsonNode payload) implements ToolOutcome {}

  /** A one-line message: no stack trace, no connection strings, no bound values. */
  record Failure(String message) implements ToolOutcome {}
}
