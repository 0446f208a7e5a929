package dev.svc.protocol.mcp;

import static dev.svc.protocol.mcp.McpWire.Kind.STRING;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP {@code InitializeResult}: the answer to {@code initialize}, the revision both sides speak and
 * what the server offers.
 *
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization">MCP
 *     initialization</a>
 */
public record InitializeResult(
    String protocolVersion, ServerCapabilities capabilities, Implementation serverInfo)
    implements McpJson {

  /** MCP {@code Implementation}: the name and version of a server (or client). */
  public record Implementation(String name, String version) {
    public ObjectNode toJson() {
      return McpWire.NODES.objectNode().put("name", name).put("version", version);
    }

    public static Implementation fromJson(JsonNode json, String path) {
      McpWire.Fields implementation = McpWire.Fields.of(json, path);
      return new Implementation(
          implementation.required("name", STRING), implementation.required("version", STRING));
    }
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode out = McpWire.NODES.objectNode().put("protocolVersion", protocolVersion);
    out.set("capabilities", capabilities.toJson());
    out.set("serverInfo", serverInfo.toJson());
    return out;
  }

  public static InitializeResult fromJson(JsonNode json, String path) {
    McpWire.Fields result = McpWire.Fields.of(json, path);
    return new InitializeResult(
        result.required("protocolVersion", STRING),
        result.nested("capabilities", ServerCapabilities::fromJson),
        result.nested("serverInfo", Implementation::fromJson));
  }
}
