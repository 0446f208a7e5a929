package dev.svc.protocol.mcp;

import static dev.svc.protocol.mcp.McpWire.Kind.ANY;
import static dev.svc.protocol.mcp.McpWire.Kind.BOOLEAN;

import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP {@code CallToolResult}: the answer to {@code tools/call}. A failure the model can fix is a
 * result too, with {@code isError} (always written, as clients of older revisions expect it).
 *
 * @param structuredContent the result as JSON; svc puts the serialized payload here as a raw value,
 *     so a payload is serialized once for both the text item and this field
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result">MCP
 *     tool result</a>
 */
public record CallToolResult(
    List<Content> content, Optional<JsonNode> structuredContent, boolean isError)
    implements McpJson {

  public CallToolResult {
    content = List.copyOf(content);
  }

  /** A result of one text item and no structured content. */
  public static CallToolResult text(String text, boolean isError) {
    return new CallToolResult(List.of(Content.text(text)), Optional.empty(), isError);
  }

  public static CallToolResult fromJson(JsonNode json, String path) {
    McpWire.Fields result = McpWire.Fields.of(json, path);
    return new CallToolResult(
        result.list("content", Content::fromJson),
        result.optional("structuredContent", ANY),
        result.optional("isError", BOOLEAN).orElse(false));
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode out = McpWire.NODES.objectNode();
    out.set("content", McpWire.array(content, Content::toJson));
    McpWire.set(out, "structuredContent", structuredContent);
    out.put("isError", isError);
    return out;
  }
}
