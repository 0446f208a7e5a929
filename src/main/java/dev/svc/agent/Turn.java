package dev.svc.agent;

import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** One entry of a conversation sent to a model, independent of the provider's wire format. */
public sealed interface Turn {

  /** What the user said. */
  record User(String text) implements Turn {}

  /**
   * What the model answered: text, tool calls, or both.
   *
   * @param raw the provider's own message, replayed as-is to the same provider so that opaque
   *     fields (e.g. Gemini thought signatures) survive; empty for turns of earlier tasks
   */
  record Model(String text, List<ToolCall> toolCalls, Optional<JsonNode> raw) implements Turn {
    public Model {
      toolCalls = List.copyOf(toolCalls);
    }

    public static Model text(String text) {
      return new Model(text, List.of(), Optional.empty());
    }
  }

  /**
   * The answer to one tool call.
   *
   * @param result the tool's payload, or {@code {"error": message}} when it failed
   * @param failed whether the call failed (the model sees the message as the tool's answer)
   */
  record ToolResult(ToolCall call, JsonNode result, boolean failed) implements Turn {}
}
