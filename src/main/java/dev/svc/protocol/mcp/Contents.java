package dev.svc.protocol.mcp;

import static dev.svc.protocol.mcp.McpWire.Kind.OBJECT;
import static dev.svc.protocol.mcp.McpWire.Kind.STRING;

import dev.svc.runtime.ResourceContents;
import java.util.Base64;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP {@code ResourceContents}: what a resource holds, as text ({@code TextResourceContents}) or as
 * base64 bytes ({@code BlobResourceContents}). Read by {@code resources/read} and embedded in
 * content ({@link Content.EmbeddedResource}).
 *
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-contents">MCP
 *     resource contents</a>
 */
public record Contents(String uri, Optional<String> mimeType, Body body, Optional<ObjectNode> meta)
    implements McpJson {

  /** The contents proper: {@code text}, or {@code blob}. */
  public sealed interface Body {
    record Text(String text) implements Body {}

    /**
     * @param blob the bytes, base64-encoded
     */
    record Blob(String blob) implements Body {}
  }

  /** A resource's contents as svc read them. */
  public static Contents of(ResourceContents.Content content) {
    Body body =
        switch (content) {
          case ResourceContents.Text text -> new Body.Text(text.text());
          case ResourceContents.Blob blob ->
              new Body.Blob(Base64.getEncoder().encodeToString(blob.bytes()));
        };
    return new Contents(content.uri(), Optional.of(content.mimeType()), body, Optional.empty());
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode out = McpWire.NODES.objectNode();
    out.put("uri", uri);
    McpWire.put(out, "mimeType", mimeType);
    switch (body) {
      case Body.Text text -> out.put("text", text.text());
      case Body.Blob blob -> out.put("blob", blob.blob());
    }
    McpWire.set(out, "_meta", meta);
    return out;
  }

  /** Text when {@code text} is there, else a blob. */
  public static Contents fromJson(JsonNode json, String path) {
    McpWire.Fields fields = McpWire.Fields.of(json, path);
    Optional<String> text = fields.optional("text", STRING);
    return new Contents(
        fields.required("uri", STRING),
        fields.optional("mimeType", STRING),
        text.isPresent()
            ? new Body.Text(text.get())
            : new Body.Blob(fields.required("blob", STRING)),
        fields.optional("_meta", OBJECT));
  }
}
