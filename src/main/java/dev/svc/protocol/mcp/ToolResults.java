package dev.svc.protocol.mcp;

import dev.svc.runtime.Json;
import dev.svc.runtime.ToolOutcome;
import dev.svc.runtime.ToolOutcomeText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.util.RawValue;

/** MCP {@code tools/call} results from tool outcomes (DECISIONS "Tools"). */
final class ToolResults {
  private ToolResults() {}

  static ObjectNode of(ToolOutcome outcome) {
    ObjectNode result = Json.NODES.objectNode();
    switch (outcome) {
      case ToolOutcome.Success success when McpContent.isContent(success.payload()) -> {
        java.util.Optional<String> problem = McpContent.problem(success.payload());
        if (problem.isPresent()) {
          result
              .putArray("content")
              .addObject()
              .put("type", "text")
              .put("text", "invalid MCP content: " + problem.get());
          result.put("isError", true);
        } else {
          result.set("content", success.payload().get(McpContent.KEY));
          result.put("isError", false);
        }
      }
      case ToolOutcome.Success success -> {
        // the payload is serialized once: as the text item, and embedded raw as structuredContent
        JsonNode payload = success.payload();
        String json = ToolOutcomeText.of(success);
        result.putArray("content").addObject().put("type", "text").put("text", json);
        result.putRawValue(
            "structuredContent",
            new RawValue(payload.isObject() ? json : "{\"result\":" + json + "}"));
        result.put("isError", false);
      }
      case ToolOutcome.Failure failure -> {
        result
            .putArray("content")
            .addObject()
            .put("type", "text")
            .put("text", ToolOutcomeText.of(failure));
        result.put("isError", true);
      }
    }
    return result;
  }
}
