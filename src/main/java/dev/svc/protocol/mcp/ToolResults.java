package dev.svc.protocol.mcp;

import dev.svc.runtime.ToolOutcome;
import dev.svc.runtime.ToolOutcomeText;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.util.RawValue;

/**
 * MCP {@code tools/call} results from tool outcomes (docs/decisions.md "Tools", docs/results.md).
 */
final class ToolResults {
  private ToolResults() {}

  static CallToolResult of(ToolOutcome outcome) {
    return switch (outcome) {
      case ToolOutcome.Success success when McpContent.isContent(success.payload()) ->
          switch (McpContent.items(success.payload())) {
            case McpContent.Items.Valid valid ->
                new CallToolResult(valid.items(), Optional.empty(), false);
            case McpContent.Items.Invalid invalid ->
                CallToolResult.text("invalid MCP content: " + invalid.problem(), true);
          };
      case ToolOutcome.Success success -> {
        // the payload is serialized once (by the pipeline when it measured it against max_bytes):
        // as the text item, and embedded raw as structuredContent
        String json = ToolOutcomeText.payloadJson(success);
        String structured = ToolOutcomeText.structured(success, json);
        yield new CallToolResult(
            List.of(Content.text(success.truncation().isPresent() ? structured : json)),
            Optional.of(McpWire.NODES.rawValueNode(new RawValue(structured))),
            false);
      }
      case ToolOutcome.Failure failure -> CallToolResult.text(ToolOutcomeText.of(failure), true);
    };
  }
}
