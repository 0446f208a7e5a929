package dev.svc.suite;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What a tool call answered, as a test case checks it.
 *
 * @param payload the result's payload (for a statement, its rows); empty for an error
 * @param error the message of an {@code isError} result; empty for a success
 * @param truncated whether a cap cut the payload
 */
public record Answer(Optional<JsonNode> payload, Optional<String> error, boolean truncated) {
  public static Answer success(JsonNode payload, boolean truncated) {
    return new Answer(Optional.of(payload), Optional.empty(), truncated);
  }

  public static Answer failure(String message) {
    return new Answer(Optional.empty(), Optional.of(message), false);
  }

  /** The answer as one line or block, for reports. */
  public String describe() {
    return error
        .map(m -> "isError: " + m)
        .orElseGet(() -> payload.map(Expectation::pretty).orElse("(nothing)"));
  }
}
