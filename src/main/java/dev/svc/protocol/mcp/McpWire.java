package dev.svc.protocol.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reading and writing MCP's JSON, for the wire records ({@link CallToolResult}, {@link Content},
 * …). Readers ignore unknown fields and take {@code null} for an absent field; a field of the wrong
 * type is an {@link McpShapeException} naming its path. Writers omit absent fields. Records are
 * written as trees, which the shared mapper serializes ({@code dev.svc.json.Jackson.MAPPER}).
 */
final class McpWire {
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private McpWire() {}

  /** A JSON type a field may have, and how its value is taken. */
  record Kind<T>(String expected, Predicate<JsonNode> test, Function<JsonNode, T> value) {
    static final Kind<String> STRING =
        new Kind<>("a string", JsonNode::isString, JsonNode::asString);
    static final Kind<Boolean> BOOLEAN =
        new Kind<>("true or false", JsonNode::isBoolean, JsonNode::asBoolean);
    static final Kind<Long> INTEGER =
        new Kind<>(
            "an integer", n -> n.isIntegralNumber() && n.canConvertToLong(), JsonNode::asLong);
    static final Kind<ObjectNode> OBJECT =
        new Kind<>("an object", JsonNode::isObject, n -> (ObjectNode) n);
    static final Kind<ArrayNode> ARRAY =
        new Kind<>("an array", JsonNode::isArray, n -> (ArrayNode) n);
    static final Kind<JsonNode> ANY = new Kind<>("a value", n -> true, n -> n);
  }

  /** The fields of one JSON object being read, and the path that names them in errors. */
  record Fields(ObjectNode object, String path) {

    /** The fields of {@code json}, which must be an object. */
    static Fields of(JsonNode json, String path) {
      if (!json.isObject()) {
        throw McpShapeException.invalid(path, "an object");
      }
      return new Fields((ObjectNode) json, path);
    }

    /** The path of a field, e.g. {@code content[0].text}. */
    String at(String name) {
      return path.isEmpty() ? name : path + "." + name;
    }

    /** A field the type requires: absent, {@code null} or of another type, it is missing. */
    <T> T required(String name, Kind<T> kind) {
      JsonNode value = object.get(name);
      if (value == null || !kind.test().test(value)) {
        throw McpShapeException.missing(at(name));
      }
      return kind.value().apply(value);
    }

    /** A field that may be absent ({@code null} counts as absent). */
    <T> Optional<T> optional(String name, Kind<T> kind) {
      JsonNode value = object.get(name);
      if (value == null || value.isNull()) {
        return Optional.empty();
      }
      if (!kind.test().test(value)) {
        throw McpShapeException.invalid(at(name), kind.expected());
      }
      return Optional.of(kind.value().apply(value));
    }

    /** A required object field, read by {@code reader} (given the object and its path). */
    <T> T nested(String name, BiFunction<JsonNode, String, T> reader) {
      return reader.apply(required(name, Kind.OBJECT), at(name));
    }

    /** An optional object field, read by {@code reader}. */
    <T> Optional<T> optionalNested(String name, BiFunction<JsonNode, String, T> reader) {
      return optional(name, Kind.OBJECT).map(value -> reader.apply(value, at(name)));
    }

    /** A list whose items {@code reader} reads (given each item and its path); empty if absent. */
    <T> List<T> list(String name, BiFunction<JsonNode, String, T> reader) {
      List<T> items = new ArrayList<>();
      optional(name, Kind.ARRAY)
          .ifPresent(array -> {
            for (int i = 0; i < array.size(); i++) {
              items.add(reader.apply(array.get(i), at(name) + "[" + i + "]"));
            }
          });
      return items;
    }
  }

  /** An item of a list of strings. */
  static String string(JsonNode item, String path) {
    if (!item.isString()) {
      throw McpShapeException.invalid(path, Kind.STRING.expected());
    }
    return item.asString();
  }

  static void put(ObjectNode out, String name, Optional<String> value) {
    value.ifPresent(v -> out.put(name, v));
  }

  static void set(ObjectNode out, String name, Optional<? extends JsonNode> value) {
    value.ifPresent(v -> out.set(name, v));
  }

  /** An array of the JSON of each item. */
  static <T> ArrayNode array(List<T> items, Function<T, ObjectNode> toJson) {
    ArrayNode array = NODES.arrayNode(items.size());
    items.forEach(item -> array.add(toJson.apply(item)));
    return array;
  }
}
