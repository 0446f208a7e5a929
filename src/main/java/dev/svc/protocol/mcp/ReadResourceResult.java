package dev.svc.protocol.mcp;

import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP {@code ReadResourceResult}: the answer to {@code resources/read}; svc reads one resource, so
 * one {@link Contents}.
 *
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2025-11-25/server/resources#reading-resources">MCP
 *     reading resources</a>
 */
public record ReadResourceResult(List<Contents> contents) implements McpJson {

  public ReadResourceResult {
    contents = List.copyOf(contents);
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode out = McpWire.NODES.objectNode();
    out.set("contents", McpWire.array(contents, Contents::toJson));
    return out;
  }

  public static ReadResourceResult fromJson(JsonNode json, String path) {
    return new ReadResourceResult(
        McpWire.Fields.of(json, path).list("contents", Contents::fromJson));
  }
}
