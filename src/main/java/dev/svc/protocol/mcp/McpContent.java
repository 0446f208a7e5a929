package dev.svc.protocol.mcp;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A tool payload of MCP content items, as scripts make it with {@code mcp.content(...)}: {@code
 * {"mcp:content": [{type: "text"|"image"|"audio"|"resource"|"resource_link", …}]}}. Such a result
 * is sent as the items themselves instead of as JSON text.
 */
final class McpContent {
  static final String KEY = "mcp:content";

  private McpContent() {}

  /** The items of such a payload, or what is wrong with them. */
  sealed interface Items {
    record Valid(List<Content> items) implements Items {}

    /**
     * @param problem what is wrong, in one line, naming the item
     */
    record Invalid(String problem) implements Items {}
  }

  /** Whether the payload asks to be sent as content items. */
  static boolean isContent(JsonNode payload) {
    return payload.isObject() && payload.size() == 1 && payload.has(KEY);
  }

  /** Reads the items of a payload that {@linkplain #isContent is content}. */
  static Items items(JsonNode payload) {
    JsonNode items = payload.get(KEY);
    if (!items.isArray() || items.isEmpty()) {
      return new Items.Invalid("`mcp:content` must be a non-empty list of content items");
    }
    List<Content> read = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      JsonNode item = items.get(i);
      String where = "content item " + (i + 1);
      String type = item.path("type").asString("");
      if (!Content.TYPES.contains(type)) {
        return new Items.Invalid(
            where + " has no valid `type` (text, image, audio, resource or resource_link)");
      }
      try {
        read.add(Content.fromJson(item, KEY + "[" + i + "]"));
      } catch (McpShapeException e) {
        return new Items.Invalid(
            where
                + " ("
                + type
                + ") "
                + (e.missing() ? "lacks a required field" : "is invalid: " + e.getMessage()));
      }
    }
    return new Items.Valid(read);
  }
}
