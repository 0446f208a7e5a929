package dev.svc.protocol.mcp;

import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A tool payload of MCP content items, as scripts make it with {@code mcp.content(...)}: {@code
 * {"mcp:content": [{type: "text"|"image"|"audio"|"resource"|"resource_link", …}]}}. Such a result
 * is sent as the items themselves instead of as JSON text.
 */
final class McpContent {
  static final String KEY = "mcp:content";
  private static final Set<String> TYPES =
      Set.of("text", "image", "audio", "resource", "resource_link");

  private McpContent() {}

  /** Whether the payload asks to be sent as content items. */
  static boolean isContent(JsonNode payload) {
    return payload.isObject() && payload.size() == 1 && payload.has(KEY);
  }

  /** What is wrong with the items, in one line; empty when they are valid MCP content. */
  static Optional<String> problem(JsonNode payload) {
    JsonNode items = payload.get(KEY);
    if (!items.isArray() || items.isEmpty()) {
      return Optional.of("`mcp:content` must be a non-empty list of content items");
    }
    for (int i = 0; i < items.size(); i++) {
      JsonNode item = items.get(i);
      String where = "content item " + (i + 1);
      String type = item.path("type").asString("");
      if (!TYPES.contains(type)) {
        return Optional.of(
            where + " has no valid `type` (text, image, audio, resource or resource_link)");
      }
      boolean ok =
          switch (type) {
            case "text" -> item.path("text").isString();
            case "image", "audio" ->
                item.path("data").isString() && item.path("mimeType").isString();
            case "resource" ->
                item.path("resource").path("uri").isString()
                    && (item.path("resource").path("text").isString()
                        || item.path("resource").path("blob").isString());
            default -> item.path("uri").isString() && item.path("name").isString();
          };
      if (!ok) {
        return Optional.of(where + " (" + type + ") lacks a required field");
      }
    }
    return Optional.empty();
  }
}
