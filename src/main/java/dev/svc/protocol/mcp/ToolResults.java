package dev.svc.protocol.mcp;

import dev.svc.runtime.Json;
import dev.svc.runtime.ToolOutcome;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** MCP {@code tools/call} results from tool outcomes (DECISIONS "Tools"). */
final class ToolResults {
  private ToolResults() {}

  static ObjectNode of(ToolOutcome outcome) {
    ObjectNode result = Json.NODES.objectNode();
    switch (outcome) {
      case ToolOutcome.Success success -> {
        JsonNode payload = success.payload();
        result
            .putArray("content")
            .addObject()
            .put("type", "text")
            .put("text", Json.MAPPER.writeValueAsString(payload));
        if (payload.isObject()) {
          result.set("structuredContent", payload);
        } else {
          result.putObject("structuredContent").set("result", payload);
        }
        result.put("isError", false);
      }
      case ToolOutcome.Failure failure -> {
        result.putArray("content").addObject().put("type", "text").put("text", failure.message());
        result.put("isError", true);
      }
    }
    return result;
  }
}
