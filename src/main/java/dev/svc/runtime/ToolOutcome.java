package dev.svc.runtime;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The result of a tool call: a payload, or a failure the caller (or model) can fix, as a value.
 * Server faults are not outcomes: they are thrown as {@link ToolServerException}.
 */
public sealed interface ToolOutcome {
  /**
   * A payload, as the caps left it (docs/results.md).
   *
   * @param envelope the key a list payload is shown under in structured content
   * @param truncation what a cap cut, when one did
   * @param json the payload's JSON when the pipeline already wrote it (to measure it against {@code
   *     max_bytes}), so that it is written once
   */
  record Success(
      JsonNode payload, Envelope envelope, Optional<Truncation> truncation, Optional<String> json)
      implements ToolOutcome {

    /** A payload that nothing cut, shown as {@code {"result": …}} when it is not an object. */
    public Success(JsonNode payload) {
      this(payload, Envelope.RESULT, Optional.empty(), Optional.empty());
    }
  }

  /** A one-line message: no stack trace, no connection strings, no bound values. */
  record Failure(String message) implements ToolOutcome {}

  /**
   * The key a list payload is shown under in structured content: a statement's rows ({@code rows}),
   * anything else's list ({@code result}).
   */
  enum Envelope {
    ROWS("rows"),
    RESULT("result");

    private final String key;

    Envelope(String key) {
      this.key = key;
    }

    public String key() {
      return key;
    }
  }
}
