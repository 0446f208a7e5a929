package dev.svc.protocol.mcp;

import static dev.svc.protocol.mcp.McpWire.Kind.BOOLEAN;
import static dev.svc.protocol.mcp.McpWire.Kind.OBJECT;

import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP {@code ServerCapabilities}: what a server offers; a capability it does not offer is absent.
 * {@code completions} and {@code logging} have no settings of their own (an empty object).
 *
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation">MCP
 *     capability negotiation</a>
 */
public record ServerCapabilities(
    Optional<Listing> tools,
    Optional<Listing> prompts,
    Optional<Resources> resources,
    Optional<ObjectNode> completions,
    Optional<ObjectNode> logging)
    implements McpJson {

  /** Of tools and prompts: whether the server says when the list changed. */
  public record Listing(Optional<Boolean> listChanged) {
    ObjectNode toJson() {
      ObjectNode out = McpWire.NODES.objectNode();
      listChanged.ifPresent(b -> out.put("listChanged", b));
      return out;
    }

    static Listing fromJson(JsonNode json, String path) {
      return new Listing(McpWire.Fields.of(json, path).optional("listChanged", BOOLEAN));
    }
  }

  /** Of resources: whether clients may subscribe to one, and whether the list says it changed. */
  public record Resources(Optional<Boolean> subscribe, Optional<Boolean> listChanged) {
    ObjectNode toJson() {
      ObjectNode out = McpWire.NODES.objectNode();
      subscribe.ifPresent(b -> out.put("subscribe", b));
      listChanged.ifPresent(b -> out.put("listChanged", b));
      return out;
    }

    static Resources fromJson(JsonNode json, String path) {
      McpWire.Fields resources = McpWire.Fields.of(json, path);
      return new Resources(
          resources.optional("subscribe", BOOLEAN), resources.optional("listChanged", BOOLEAN));
    }
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode out = McpWire.NODES.objectNode();
    tools.ifPresent(t -> out.set("tools", t.toJson()));
    prompts.ifPresent(p -> out.set("prompts", p.toJson()));
    resources.ifPresent(r -> out.set("resources", r.toJson()));
    McpWire.set(out, "completions", completions);
    McpWire.set(out, "logging", logging);
    return out;
  }

  public static ServerCapabilities fromJson(JsonNode json, String path) {
    McpWire.Fields capabilities = McpWire.Fields.of(json, path);
    return new ServerCapabilities(
        capabilities.optionalNested("tools", Listing::fromJson),
        capabilities.optionalNested("prompts", Listing::fromJson),
        capabilities.optionalNested("resources", Resources::fromJson),
        capabilities.optional("completions", OBJECT),
        capabilities.optional("logging", OBJECT));
  }
}
