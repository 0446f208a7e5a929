package dev.svc.runtime;

import dev.svc.json.Json;
import dev.svc.model.Tool;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Arguments as the audit trail shows them: every key the caller sent, each value replaced by
 * {@value #REDACTED} unless the tool declares that input with {@code redact: false}. Keys that are
 * not inputs, and non-object arguments, are redacted too. For the built-in {@code search}, only
 * {@code limit} is shown.
 *
 * <p>What is shown is bounded, since the caller chooses it: the first {@value #MAX_KEYS} keys (then
 * one {@code "…"} key counting the rest), each cut at {@value #MAX_KEY_CHARS} characters, and a
 * shown value whose JSON passes {@value #MAX_VALUE_CHARS} characters stands as {@code "[N
 * characters]"}. A 4 MB request of unknown keys made a 4 MB audit line, and 8192 of them queued
 * behind a slow disk held 32 GB.
 */
final class AuditArguments {
  static final String REDACTED = "[redacted]";
  static final int MAX_KEYS = 64;
  static final int MAX_KEY_CHARS = 128;
  static final int MAX_VALUE_CHARS = 1024;

  private AuditArguments() {}

  static JsonNode redact(Optional<Tool> tool, JsonNode arguments) {
    ObjectNode shown = Json.NODES.objectNode();
    if (arguments == null || arguments.isNull()) {
      return shown;
    }
    if (!arguments.isObject()) {
      return Json.NODES.stringNode(REDACTED);
    }
    int keys = 0;
    for (Map.Entry<String, JsonNode> entry : arguments.properties()) {
      if (keys++ == MAX_KEYS) {
        shown.put("…", (arguments.size() - MAX_KEYS) + " more keys");
        break;
      }
      String name = entry.getKey();
      boolean plain =
          tool.isPresent()
              ? tool.get().inputs().stream()
                  .anyMatch(input -> input.name().equals(name) && !input.redacted())
              : name.equals("limit");
      shown.set(cut(name), plain ? bounded(entry.getValue()) : Json.NODES.stringNode(REDACTED));
    }
    return shown;
  }

  private static String cut(String key) {
    if (key.length() <= MAX_KEY_CHARS) {
      return key;
    }
    int end =
        Character.isHighSurrogate(key.charAt(MAX_KEY_CHARS - 1))
            ? MAX_KEY_CHARS - 1
            : MAX_KEY_CHARS;
    return key.substring(0, end) + "…";
  }

  private static JsonNode bounded(JsonNode value) {
    if (value.isBoolean() || value.isNull()) {
      return value;
    }
    String json = value.toString();
    return json.length() <= MAX_VALUE_CHARS
        ? value
        : Json.NODES.stringNode("[" + json.length() + " characters]");
  }
}
