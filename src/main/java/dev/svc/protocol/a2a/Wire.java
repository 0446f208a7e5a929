package dev.svc.protocol.a2a;

import dev.svc.json.Json;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reading and writing A2A v1 ProtoJSON (§5.5): camelCase names, enum names as strings, ISO-8601 UTC
 * timestamps. Readers ignore unknown fields and treat {@code null} like an absent field; a field of
 * the wrong type is an invalid-params error naming its path. Writers omit absent and empty fields
 * and {@code false} booleans, as proto3 JSON does.
 */
final class Wire {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Wire() {}

  static String timestamp(Instant instant) {
    return TIMESTAMP.format(instant.truncatedTo(ChronoUnit.MILLIS));
  }

  static Instant parseTimestamp(String text, String path) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      try {
        return Instant.parse(text);
      } catch (DateTimeParseException again) {
        throw A2aErrors.invalidParams(
            "`" + path + "` must be an ISO-8601 timestamp, e.g. 2026-01-31T12:00:00Z");
      }
    }
  }

  /** The field, unless absent or {@code null}. */
  static Optional<JsonNode> field(JsonNode object, String name) {
    JsonNode value = object.get(name);
    return value == null || value.isNull() || value.isMissingNode()
        ? Optional.empty()
        : Optional.of(value);
  }

  static Optional<String> string(JsonNode object, String name, String path) {
    Optional<JsonNode> value = field(object, name);
    if (value.isPresent() && !value.get().isString()) {
      throw A2aErrors.invalidParams("`" + path + "` must be a string");
    }
    return value.map(JsonNode::asString);
  }

  static String requiredString(JsonNode object, String name, String path) {
    String value = string(object, name, path).orElse("");
    if (value.isBlank()) {
      throw A2aErrors.invalidParams("`" + path + "` is required");
    }
    return value;
  }

  static Optional<Integer> integer(JsonNode object, String name, String path) {
    Optional<JsonNode> value = field(object, name);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    JsonNode node = value.get();
    if (node.isIntegralNumber() && node.canConvertToInt()) {
      return Optional.of(node.asInt());
    }
    if (node.isString() && node.asString().matches("-?\\d{1,9}")) {
      return Optional.of(Integer.parseInt(node.asString())); // ProtoJSON allows quoted numbers
    }
    throw A2aErrors.invalidParams("`" + path + "` must be an integer");
  }

  static boolean bool(JsonNode object, String name, String path) {
    Optional<JsonNode> value = field(object, name);
    if (value.isPresent() && !value.get().isBoolean()) {
      throw A2aErrors.invalidParams("`" + path + "` must be true or false");
    }
    return value.map(JsonNode::asBoolean).orElse(false);
  }

  static Optional<ObjectNode> object(JsonNode object, String name, String path) {
    Optional<JsonNode> value = field(object, name);
    if (value.isPresent() && !value.get().isObject()) {
      throw A2aErrors.invalidParams("`" + path + "` must be an object");
    }
    return value.map(v -> (ObjectNode) v);
  }

  static List<String> strings(JsonNode object, String name, String path) {
    return list(
        object,
        name,
        path,
        (item, itemPath) -> {
          if (!item.isString()) {
            throw A2aErrors.invalidParams("`" + itemPath + "` must be a string");
          }
          return item.asString();
        });
  }

  static <T> List<T> list(
      JsonNode object, String name, String path, BiFunction<JsonNode, String, T> reader) {
    Optional<JsonNode> value = field(object, name);
    if (value.isEmpty()) {
      return List.of();
    }
    if (!value.get().isArray()) {
      throw A2aErrors.invalidParams("`" + path + "` must be an array");
    }
    List<T> items = new ArrayList<>();
    int i = 0;
    for (JsonNode item : value.get()) {
      items.add(reader.apply(item, path + "[" + i++ + "]"));
    }
    return items;
  }

  static void putIfPresent(ObjectNode out, String name, Optional<String> value) {
    value.ifPresent(v -> out.put(name, v));
  }

  static void putStrings(ObjectNode out, String name, List<String> values) {
    if (!values.isEmpty()) {
      ArrayNode array = out.putArray(name);
      values.forEach(array::add);
    }
  }

  static ObjectNode object() {
    return Json.NODES.objectNode();
  }
}
