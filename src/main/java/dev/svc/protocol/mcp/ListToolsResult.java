package dev.svc.protocol.mcp;

import static dev.svc.protocol.mcp.McpWire.Kind.OBJECT;
import static dev.svc.protocol.mcp.McpWire.Kind.STRING;

import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP {@code ListToolsResult}: the answer to {@code tools/list}.
 *
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2025-11-25/server/tools#listing-tools">MCP
 *     listing tools</a>
 */
public record ListToolsResult(List<Tool> tools) {

  public ListToolsResult {
    tools = List.copyOf(tools);
  }

  public static ListToolsResult fromJson(JsonNode json, String path) {
    return new ListToolsResult(McpWire.Fields.of(json, path).list("tools", Tool::fromJson));
  }

  public ObjectNode toJson() {
    ObjectNode out = McpWire.NODES.objectNode();
    out.set("tools", McpWire.array(tools, Tool::toJson));
    return out;
  }

  /**
   * One tool as clients see it (MCP {@code Tool}).
   *
   * @param description svc always sends one (clients and the conformance suite expect it)
   * @param inputSchema a JSON Schema of {@code type: object}
   */
  public record Tool(String name, Optional<String> description, ObjectNode inputSchema) {
    public Tool(String name, String description, ObjectNode inputSchema) {
      this(name, Optional.of(description), inputSchema);
    }

    public static Tool fromJson(JsonNode json, String path) {
      McpWire.Fields tool = McpWire.Fields.of(json, path);
      return new Tool(
          tool.required("name", STRING),
          tool.optional("description", STRING),
          tool.required("inputSchema", OBJECT));
    }

    public ObjectNode toJson() {
      ObjectNode out = McpWire.NODES.objectNode().put("name", name);
      McpWire.put(out, "description", description);
      out.set("inputSchema", inputSchema);
      return out;
    }
  }
}
