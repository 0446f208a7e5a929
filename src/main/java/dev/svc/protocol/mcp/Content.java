package dev.svc.protocol.mcp;

import static dev.svc.protocol.mcp.McpWire.Kind.ARRAY;
import static dev.svc.protocol.mcp.McpWire.Kind.INTEGER;
import static dev.svc.protocol.mcp.McpWire.Kind.OBJECT;
import static dev.svc.protocol.mcp.McpWire.Kind.STRING;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP {@code ContentBlock}: one item of a tool result or a prompt message, told apart by {@code
 * type}. Every item may carry {@code annotations} and {@code _meta}, kept as the JSON they are.
 *
 * @see <a href="https://modelcontextprotocol.io/specification/2025-11-25/schema#contentblock">MCP
 *     ContentBlock</a>
 */
public sealed interface Content extends McpJson {
  /** The {@code type} of every kind of item. */
  List<String> TYPES = List.of("text", "image", "audio", "resource", "resource_link");

  record Text(String text, Optional<ObjectNode> annotations, Optional<ObjectNode> meta)
      implements Content {
    @Override
    public ObjectNode toJson() {
      ObjectNode out = McpWire.NODES.objectNode().put("type", "text").put("text", text);
      return tail(out, annotations, meta);
    }
  }

  /**
   * An image or audio clip ({@code ImageContent}, {@code AudioContent}: the same fields).
   *
   * @param data the bytes, base64-encoded
   */
  record Media(
      MediaKind kind,
      String data,
      String mimeType,
      Optional<ObjectNode> annotations,
      Optional<ObjectNode> meta)
      implements Content {
    @Override
    public ObjectNode toJson() {
      ObjectNode out = McpWire.NODES.objectNode().put("type", kind.type());
      out.put("data", data).put("mimeType", mimeType);
      return tail(out, annotations, meta);
    }
  }

  /** What {@link Media} holds, by its {@code type}: {@code image} or {@code audio}. */
  enum MediaKind {
    IMAGE,
    AUDIO;

    public String type() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** A resource's contents, sent along ({@code type: "resource"}). */
  record EmbeddedResource(
      Contents resource, Optional<ObjectNode> annotations, Optional<ObjectNode> meta)
      implements Content {
    @Override
    public ObjectNode toJson() {
      ObjectNode out = McpWire.NODES.objectNode().put("type", "resource");
      out.set("resource", resource.toJson());
      return tail(out, annotations, meta);
    }
  }

  /** A link to a resource the client may read ({@code type: "resource_link"}). */
  record ResourceLink(
      String uri,
      String name,
      Optional<String> title,
      Optional<String> description,
      Optional<String> mimeType,
      Optional<Long> size,
      Optional<ArrayNode> icons,
      Optional<ObjectNode> annotations,
      Optional<ObjectNode> meta)
      implements Content {
    @Override
    public ObjectNode toJson() {
      ObjectNode out = McpWire.NODES.objectNode().put("type", "resource_link");
      out.put("uri", uri).put("name", name);
      McpWire.put(out, "title", title);
      McpWire.put(out, "description", description);
      McpWire.put(out, "mimeType", mimeType);
      size.ifPresent(s -> out.put("size", s));
      McpWire.set(out, "icons", icons);
      return tail(out, annotations, meta);
    }
  }

  static Text text(String text) {
    return new Text(text, Optional.empty(), Optional.empty());
  }

  static Media image(String data, String mimeType) {
    return new Media(MediaKind.IMAGE, data, mimeType, Optional.empty(), Optional.empty());
  }

  static EmbeddedResource resource(Contents resource) {
    return new EmbeddedResource(resource, Optional.empty(), Optional.empty());
  }

  /**
   * Reads an item of any of the {@link #TYPES}.
   *
   * @throws McpShapeException when it is not one
   */
  static Content fromJson(JsonNode json, String path) {
    McpWire.Fields item = McpWire.Fields.of(json, path);
    String type = item.required("type", STRING);
    Optional<ObjectNode> annotations = item.optional("annotations", OBJECT);
    Optional<ObjectNode> meta = item.optional("_meta", OBJECT);
    return switch (type) {
      case "text" -> new Text(item.required("text", STRING), annotations, meta);
      case "image", "audio" ->
          new Media(
              type.equals("image") ? MediaKind.IMAGE : MediaKind.AUDIO,
              item.required("data", STRING),
              item.required("mimeType", STRING),
              annotations,
              meta);
      case "resource" ->
          new EmbeddedResource(item.nested("resource", Contents::fromJson), annotations, meta);
      case "resource_link" ->
          new ResourceLink(
              item.required("uri", STRING),
              item.required("name", STRING),
              item.optional("title", STRING),
              item.optional("description", STRING),
              item.optional("mimeType", STRING),
              item.optional("size", INTEGER),
              item.optional("icons", ARRAY),
              annotations,
              meta);
      default ->
          throw McpShapeException.invalid(item.at("type"), "one of " + String.join(", ", TYPES));
    };
  }

  private static ObjectNode tail(
      ObjectNode out, Optional<ObjectNode> annotations, Optional<ObjectNode> meta) {
    McpWire.set(out, "annotations", annotations);
    McpWire.set(out, "_meta", meta);
    return out;
  }
}
