package dev.svc.compile;

import dev.svc.diagnostic.Diagnostics;
import dev.svc.json.Json;
import dev.svc.project.YamlNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool's {@code output_schema}: the JSON Schema of its {@code structuredContent}, written in
 * YAML, becomes JSON text. MCP requires the root to be an object schema ({@code type: object}); a
 * value JSON cannot hold ({@code .nan}, {@code .inf}) is reported where it is written. The schema
 * itself is the user's: svc does not check the rest of it.
 */
final class OutputSchemaCompiler {
  private final Diagnostics diagnostics;

  OutputSchemaCompiler(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /** The schema as JSON text; empty when absent or when a problem was reported. */
  Optional<String> compile(Optional<YamlNode> written) {
    if (written.isEmpty() || !(written.get() instanceof YamlNode.Mapping root)) {
      return Optional.empty(); // not a mapping: the shape checker reported it
    }
    int errorsBefore = diagnostics.errorCount();
    Optional<YamlNode> type = root.get("type");
    if (type.isEmpty()) {
      diagnostics.error(
          "invalid-output-schema",
          root.origin(),
          "the `output_schema` has no `type`; MCP requires an object schema at its root",
          "add `type: object` and describe the fields under `properties:`");
    } else if (!(type.get() instanceof YamlNode.Scalar scalar && scalar.text().equals("object"))) {
      diagnostics.error(
          "invalid-output-schema",
          type.get().origin(),
          "the `output_schema` root has `type` "
              + (type.get() instanceof YamlNode.Scalar s ? "`" + s.text() + "`" : "as a list")
              + "; MCP requires `object` (structuredContent is always a JSON object)",
          "write `type: object`; a list result is sent as `{\"result\": [...]}`, so describe it"
              + " under `properties: {result: {type: array}}`");
    }
    JsonNode json = json(root);
    return diagnostics.errorCount() > errorsBefore
        ? Optional.empty()
        : Optional.of(Json.MAPPER.writeValueAsString(json)); // keys in the order written
  }

  private JsonNode json(YamlNode node) {
    return switch (node) {
      case YamlNode.Mapping mapping -> {
        ObjectNode object = Json.NODES.objectNode();
        for (YamlNode.Entry entry : mapping.entries()) {
          object.set(entry.key().text(), json(entry.value()));
        }
        yield object;
      }
      case YamlNode.Sequence sequence -> {
        ArrayNode array = Json.NODES.arrayNode(sequence.items().size());
        sequence.items().forEach(item -> array.add(json(item)));
        yield array;
      }
      case YamlNode.Scalar scalar -> scalar(scalar);
    };
  }

  private JsonNode scalar(YamlNode.Scalar scalar) {
    String text = scalar.text();
    return switch (scalar.kind()) {
      case NULL -> Json.NODES.nullNode();
      case BOOLEAN -> Json.NODES.booleanNode(Boolean.parseBoolean(text.toLowerCase()));
      case STRING -> Json.NODES.stringNode(text);
      case INTEGER -> {
        try {
          yield Json.NODES.numberNode(integer(text.replace("_", "")));
        } catch (NumberFormatException e) {
          yield notJson(scalar);
        }
      }
      case FLOAT -> {
        try {
          yield Json.NODES.numberNode(new BigDecimal(text.replace("_", "")));
        } catch (NumberFormatException e) {
          yield notJson(scalar); // .inf, .nan
        }
      }
    };
  }

  private static BigInteger integer(String text) {
    String digits = text.startsWith("+") ? text.substring(1) : text;
    if (digits.startsWith("0x")) {
      return new BigInteger(digits.substring(2), 16);
    }
    if (digits.startsWith("0o")) {
      return new BigInteger(digits.substring(2), 8);
    }
    return new BigInteger(digits);
  }

  private JsonNode notJson(YamlNode.Scalar scalar) {
    diagnostics.error(
        "invalid-output-schema",
        scalar.origin(),
        "`" + scalar.text() + "` in the `output_schema` is not a JSON number",
        "write a finite number, or quote it to make it a string");
    return Json.NODES.nullNode();
  }
}
