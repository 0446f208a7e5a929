package dev.svc.definition;

import dev.svc.json.Jackson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the JSON Schemas (draft-07, what YAML language servers understand best) of every file kind
 * from the same {@link Shapes} the reader checks files against, so editors and svc always agree.
 * The files under {@code schema/} are these, checked in; a test fails when they drift.
 */
public final class EditorSchemas {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final JsonMapper JSON = Jackson.MAPPER;

  /** File name → schema, e.g. {@code tool.terse.schema.json}. */
  public static Map<String, String> all() {
    Map<String, String> files = new LinkedHashMap<>();
    for (Map.Entry<String, Shape> kind : kinds().entrySet()) {
      files.put(kind.getKey() + ".terse.schema.json", render(schema(kind.getValue())));
    }
    return files;
  }

  private static Map<String, Shape> kinds() {
    Map<String, Shape> kinds = new LinkedHashMap<>();
    kinds.put("root", Shapes.ROOT);
    kinds.put("adapter", Shapes.ADAPTER);
    kinds.put("tool", Shapes.TOOL);
    kinds.put("agent", Shapes.AGENT);
    kinds.put("prompt", Shapes.PROMPT);
    kinds.put("resource", Shapes.RESOURCE);
    kinds.put("tests", TestShapes.TESTS);
    kinds.put("prompt-tests", TestShapes.PROMPT_TESTS);
    kinds.put("resource-tests", TestShapes.RESOURCE_TESTS);
    kinds.put("agent-tests", TestShapes.AGENT_TESTS);
    return kinds;
  }

  static ObjectNode schema(Shape shape) {
    ObjectNode schema = NODES.objectNode();
    schema.put("$schema", "http://json-schema.org/draft-07/schema#");
    schema.put("title", "svc " + shape.id() + (shape == Shapes.ROOT ? " (.svc)" : " (.terse)"));
    Map<String, ObjectNode> definitions = new LinkedHashMap<>();
    ObjectNode body = object(shape, definitions);
    schema.setAll(body);
    if (!definitions.isEmpty()) {
      ObjectNode defs = schema.putObject("definitions");
      definitions.forEach(defs::set);
    }
    return schema;
  }

  private static ObjectNode object(Shape shape, Map<String, ObjectNode> definitions) {
    ObjectNode node = NODES.objectNode();
    node.put("description", shape.description());
    node.put("type", "object");
    ObjectNode properties = node.putObject("properties");
    for (Field field : shape.fields()) {
      ObjectNode property = type(field.type(), definitions);
      property.put("description", field.description());
      properties.set(field.name(), property);
    }
    List<String> required =
        shape.fields().stream().filter(Field::required).map(Field::name).toList();
    if (!required.isEmpty()) {
      ArrayNode list = node.putArray("required");
      required.forEach(list::add);
    }
    if (shape.strict()) {
      node.put("additionalProperties", false);
    }
    return node;
  }

  private static ObjectNode type(FieldType type, Map<String, ObjectNode> definitions) {
    ObjectNode node = NODES.objectNode();
    switch (type) {
      case FieldType.Text text -> {
        node.put("type", "string");
        text.pattern().ifPresent(p -> node.put("pattern", p));
        if (!text.choices().isEmpty()) {
          ArrayNode values = node.putArray("enum");
          text.choices().forEach(values::add);
        }
      }
      case FieldType.Int range -> {
        node.put("type", "integer");
        node.put("minimum", range.minimum());
        if (range.maximum() < Integer.MAX_VALUE) {
          node.put("maximum", range.maximum());
        }
      }
      case FieldType.Bool ignored -> node.put("type", "boolean");
      case FieldType.IntOrText ignored -> node.putArray("type").add("integer").add("string");
      case FieldType.TextList ignored -> {
        node.put("type", "array");
        node.putObject("items").put("type", "string");
      }
      case FieldType.ScalarMap map -> {
        node.put("type", "object");
        // a known name takes any scalar too (kept as text): `max_steps: 12` is no mistake
        if (!map.known().isEmpty()) {
          ObjectNode known = node.putObject("properties");
          map.known()
              .forEach((name, description) -> {
                ObjectNode property = known.putObject(name);
                scalar(property);
                property.put("description", description);
              });
        }
        scalar(node.putObject("additionalProperties"));
      }
      case FieldType.Document ignored -> node.put("type", "object");
      case FieldType.Value ignored -> {} // any JSON value
      case FieldType.Object object -> node.put("$ref", reference(object.shape(), definitions));
      case FieldType.MapOf map -> {
        node.put("type", "object");
        node.putObject("additionalProperties").put("$ref", reference(map.shape(), definitions));
      }
      case FieldType.ListOf list -> {
        node.put("type", "array");
        node.putObject("items").put("$ref", reference(list.shape(), definitions));
      }
      case FieldType.ObjectOrList either -> {
        ArrayNode oneOf = node.putArray("oneOf");
        oneOf.addObject().put("$ref", reference(either.object(), definitions));
        ObjectNode list = oneOf.addObject();
        list.put("type", "array");
        list.putObject("items").put("$ref", reference(either.item(), definitions));
      }
    }
    return node;
  }

  private static String reference(Shape shape, Map<String, ObjectNode> definitions) {
    if (!definitions.containsKey(shape.id())) {
      definitions.put(shape.id(), NODES.objectNode()); // reserve the slot first: shapes may nest
      definitions.put(shape.id(), object(shape, definitions));
    }
    return "#/definitions/" + shape.id();
  }

  private static String render(ObjectNode schema) {
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(schema) + "\n";
  }

  /** A string, number or boolean: what a map of scalars holds, read as text. */
  private static void scalar(ObjectNode node) {
    node.putArray("type").add("string").add("number").add("boolean");
  }
}
