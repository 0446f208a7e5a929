package dev.svc.connector;

import dev.svc.model.Statement;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Hrana's typed values (<a
 * href="https://github.com/tursodatabase/libsql/blob/main/docs/HRANA_3_SPEC.md">Hrana 3,
 * "Values"</a>): input values become {@code {"type": "integer" | "float" | "text" | "blob" |
 * "null", …}} arguments bound to the statement's {@code ?} parameters, the way local SQLite binds
 * them (booleans as 1/0, date-times as ISO-8601 text); result rows become JSON objects as the SQL
 * connectors build them.
 */
final class HranaValues {
  /** The most characters of a 64-bit integer in decimal: {@code -9223372036854775808}. */
  private static final int LONG_CHARACTERS = 20;

  private HranaValues() {}

  /** The statement's positional arguments, one per {@code ?}. */
  static ArrayNode arguments(Statement.Sql sql, Map<String, Object> values) {
    ArrayNode arguments = JsonValues.NODES.arrayNode(sql.parameters().size());
    for (Statement.Parameter parameter : sql.parameters()) {
      if (!values.containsKey(parameter.input())) {
        throw new StatementFailedException(
            "the statement uses input `" + parameter.input() + "`, which has no value",
            false,
            null);
      }
      Object value = values.get(parameter.input());
      arguments.add(
          parameter.asText() && value != null
              ? text(ParameterBinder.text(value))
              : value(value, parameter.input()));
    }
    return arguments;
  }

  static ObjectNode value(Object value, String input) {
    return switch (value) {
      case null -> typed("null");
      case Long l -> integer(l);
      case Integer i -> integer(i);
      case Boolean b -> integer(b ? 1 : 0);
      case Double d -> real(d, input);
      case BigDecimal d -> text(d.toPlainString());
      case String s -> text(s);
      case OffsetDateTime t -> text(JsonValues.iso(t));
      case LocalDate d -> text(JsonValues.iso(d));
      case JsonNode node -> json(node, input);
      default -> text(ParameterBinder.text(value));
    };
  }

  private static ObjectNode json(JsonNode node, String input) {
    if (node.isNull() || node.isMissingNode()) {
      return typed("null");
    }
    if (node.isString()) {
      return text(node.stringValue());
    }
    if (node.isBoolean()) {
      return integer(node.booleanValue() ? 1 : 0);
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return integer(node.longValue());
    }
    if (node.isDouble() || node.isFloat()) {
      return real(node.doubleValue(), input);
    }
    if (node.isNumber()) {
      return text(node.decimalValue().toPlainString());
    }
    return text(node.toString()); // objects and arrays: their JSON text
  }

  private static ObjectNode integer(long value) {
    return typed("integer").put("value", Long.toString(value));
  }

  private static ObjectNode real(double value, String input) {
    if (!Double.isFinite(value)) {
      throw new StatementFailedException(
          "input `" + input + "` is not a finite number", false, null);
    }
    return typed("float").put("value", value);
  }

  private static ObjectNode text(String value) {
    return typed("text").put("value", value);
  }

  private static ObjectNode typed(String type) {
    return JsonValues.NODES.objectNode().put("type", type);
  }

  /**
   * The rows of an execute result as the SQL connectors return them: an array of objects keyed by
   * column name, in column order; {@code [{"rows_affected": n}]} for a statement without columns.
   */
  static ArrayNode rows(JsonNode result) {
    JsonNode columns = result.path("cols");
    if (!columns.isArray() || columns.isEmpty()) {
      return ResultRows.rowsAffected(result.path("affected_row_count").asLong(0));
    }
    List<String> names = columns.valueStream().map(c -> c.path("name").asString("")).toList();
    ArrayNode rows = JsonValues.NODES.arrayNode();
    for (JsonNode cells : result.path("rows")) {
      ObjectNode row = rows.addObject();
      for (int i = 0; i < names.size(); i++) {
        row.set(names.get(i), cell(cells.path(i)));
      }
    }
    return rows;
  }

  /**
   * One result value as JSON: integers and floats as numbers, blobs as base64 text.
   *
   * <p>Only Hrana's own values are read: an integer is a 64-bit integer (SQLite has no other), as a
   * string of decimal digits (or a JSON integer), a float a JSON number, a blob valid base64. A
   * server answering anything else (a thousand-digit "integer", whose {@code BigInteger} parse is
   * quadratic and outlived any deadline; text where a number belongs) gets {@link NotHrana}.
   *
   * @throws NotHrana when the value is not one Hrana sends
   */
  static JsonNode cell(JsonNode value) {
    return switch (value.path("type").asString("null")) {
      case "integer" -> JsonValues.NODES.numberNode(integer(value.path("value")));
      case "float" -> {
        JsonNode number = value.path("value");
        if (!number.isNumber()) {
          throw new NotHrana("a float that is not a JSON number");
        }
        yield JsonValues.number(number.asDouble());
      }
      case "text" -> JsonValues.NODES.stringNode(value.path("value").asString(""));
      case "blob" -> {
        try {
          yield JsonValues.bytes(Base64.getDecoder().decode(value.path("base64").asString("")));
        } catch (IllegalArgumentException e) {
          throw new NotHrana("a blob that is not base64");
        }
      }
      default -> JsonValues.NODES.nullNode();
    };
  }

  private static long integer(JsonNode number) {
    if (number.isIntegralNumber() && number.canConvertToLong()) {
      return number.longValue();
    }
    String text = number.isString() ? number.stringValue() : "";
    if (!text.isEmpty() && text.length() <= LONG_CHARACTERS) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        // said below, without the server's text (NumberFormatException quotes it)
      }
    }
    throw new NotHrana("an integer that is not a 64-bit integer");
  }

  /**
   * A result value that is not one of Hrana's: the server is not a libSQL server, or a broken one.
   * The message names what was wrong, never the value.
   */
  static final class NotHrana extends RuntimeException {
    NotHrana(String what) {
      super(what, null, false, false);
    }
  }
}
