package dev.svc.runtime;

import dev.svc.json.Json;

/**
 * A tool call's outcome as the text its caller reads, the same for an MCP client (the result's text
 * content) and an agent's model (the answer of a failed call): a success's payload as JSON, a
 * failure's message.
 */
public final class ToolOutcomeText {
  private ToolOutcomeText() {}

  public static String of(ToolOutcome outcome) {
    return switch (outcome) {
      case ToolOutcome.Success success -> Json.MAPPER.writeValueAsString(success.payload());
      case ToolOutcome.Failure failure -> failure.message();
    };
  }
}
