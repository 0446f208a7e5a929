package dev.svc.protocol.mcp;

import static dev.svc.protocol.mcp.McpWire.Kind.STRING;

import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * What every listed thing of MCP (a prompt, a prompt argument, a resource, a resource template) is
 * called and said to be: MCP's {@code BaseMetadata} (a name, and a title for display) and a
 * description. Written into the object of the thing it describes.
 */
public record Descriptor(String name, Optional<String> title, Optional<String> description) {

  static Descriptor read(McpWire.Fields fields) {
    return new Descriptor(
        fields.required("name", STRING),
        fields.optional("title", STRING),
        fields.optional("description", STRING));
  }

  /** Puts {@code name}, {@code title} and {@code description} (when present) into {@code out}. */
  ObjectNode writeTo(ObjectNode out) {
    out.put("name", name);
    McpWire.put(out, "title", title);
    McpWire.put(out, "description", description);
    return out;
  }
}
