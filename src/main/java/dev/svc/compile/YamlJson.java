package dev.svc.compile;

import dev.svc.diagnostic.Diagnostics;
import dev.svc.json.Json;
import dev.svc.project.YamlNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON document written in YAML (a tool's {@code output_schema} or {@code input_schema}) as JSON:
 * keys in the order written, YAML's scalars as their JSON kinds. A value JSON cannot hold ({@code
 * .nan}, {@code .inf}) is reported where it is written, under the field's code.
 */
final class YamlJson {
  private final Diagnostics diagnostics;
  private final String field;
  private final String code;

  /**
   * @param field the field the document is written under, named in messages
   * @param code the diagnostic code of a value JSON cannot hold
   */
  YamlJson(Diagnostics diagnostics, String field, String code) {
    this.diagnostics = diagnostics;
    this.field = field;
    this.code = code;
  }

  JsonNode json(YamlNode node) {
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
        code,
        scalar.origin(),
        "`" + scalar.text() + "` in the `" + field + "` is not a JSON number",
        "write a finite number, or quote it to make it a string");
    return Json.NODES.nullNode();
  }
}
