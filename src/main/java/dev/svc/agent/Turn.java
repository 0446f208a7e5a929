package dev.svc.agent;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
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
   * @param usage the tokens the provider said the call used, for telemetry
   */
  record Model(String text, List<ToolCall> toolCalls, Optional<JsonNode> raw, Usage usage)
      implements Turn {
    public Model {
      toolCalls = List.copyOf(toolCalls);
    }

    public Model(String text, List<ToolCall> toolCalls, Optional<JsonNode> raw) {
      this(text, toolCalls, raw, Usage.UNKNOWN);
    }

    public static Model text(String text) {
      return new Model(text, List.of(), Optional.empty());
    }
  }

  /** Token counts of one model call, as the provider reported them (often not at all). */
  record Usage(OptionalLong inputTokens, OptionalLong outputTokens) {
    public static final Usage UNKNOWN = new Usage(OptionalLong.empty(), OptionalLong.empty());

    /** The counts in {@code counts} under these keys (absent when the key is missing). */
    static Usage of(JsonNode counts, String inputKey, String outputKey) {
      return new Usage(count(counts.path(inputKey)), count(counts.path(outputKey)));
    }

    private static OptionalLong count(JsonNode node) {
      return node.isIntegralNumber() ? OptionalLong.of(node.asLong()) : OptionalLong.empty();
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
