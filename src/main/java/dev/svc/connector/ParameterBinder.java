package dev.svc.connector;

import dev.svc.model.Statement;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.temporal.TemporalAccessor;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Binds input values to a prepared statement's {@code ?} parameters, each with the JDBC setter of
 * its type. Values are never written into SQL text.
 */
final class ParameterBinder {
  private ParameterBinder() {}

  /**
   * Binds parameter {@code i} to the value of the input it names.
   *
   * @param typedAsText the parameters (1-based) the database could not type: a text, a structured
   *     value or NULL there is bound with the type text ({@link SqlDialect#bindText})
   * @throws StatementFailedException when an input the statement names has no value
   */
  static void bind(
      PreparedStatement statement,
      List<Statement.Parameter> parameters,
      Map<String, Object> values,
      SqlDialect dialect,
      Set<Integer> typedAsText)
      throws SQLException {
    for (int i = 0; i < parameters.size(); i++) {
      Statement.Parameter parameter = parameters.get(i);
      if (!values.containsKey(parameter.input())) {
        throw new StatementFailedException(
            "the statement uses input `" + parameter.input() + "`, which has no value",
            false,
            null);
      }
      Object value = values.get(parameter.input());
      int index = i + 1;
      if (typedAsText.contains(index)
          && (value == null || value instanceof String || value instanceof JsonNode)) {
        dialect.bindText(statement, index, isNull(value) ? null : text(value));
      } else if (parameter.asText()) {
        if (value == null) {
          statement.setNull(index, Types.VARCHAR);
        } else {
          statement.setString(index, text(value));
        }
      } else {
        bindTyped(statement, index, value, dialect);
      }
    }
  }

  private static void bindTyped(
      PreparedStatement statement, int index, Object value, SqlDialect dialect)
      throws SQLException {
    // instanceof, not a pattern switch: the start-up cache cannot hold a pattern switch's
    // generated class, and the start-up's statement checks bind values (docs/cli.md)
    if (value == null) {
      statement.setNull(index, Types.NULL);
    } else if (value instanceof Long l) {
      statement.setLong(index, l);
    } else if (value instanceof Integer n) {
      statement.setLong(index, n);
    } else if (value instanceof Double d) {
      statement.setDouble(index, d);
    } else if (value instanceof BigDecimal d) {
      statement.setBigDecimal(index, d);
    } else if (value instanceof Boolean b) {
      statement.setBoolean(index, b);
    } else if (value instanceof String s) {
      statement.setString(index, s);
    } else if (value instanceof OffsetDateTime t) {
      dialect.bindDateTime(statement, index, t);
    } else if (value instanceof LocalDate d) {
      dialect.bindDate(statement, index, d);
    } else if (value instanceof JsonNode node) {
      bindJson(statement, index, node, dialect);
    } else {
      throw new IllegalArgumentException(
          "cannot bind a value of type " + value.getClass().getName());
    }
  }

  /** Scalars bind as their type; objects and arrays as their JSON text. */
  private static void bindJson(
      PreparedStatement statement, int index, JsonNode node, SqlDialect dialect)
      throws SQLException {
    if (node.isNull() || node.isMissingNode()) {
      statement.setNull(index, Types.NULL);
    } else if (node.isString()) {
      statement.setString(index, node.stringValue());
    } else if (node.isBoolean()) {
      statement.setBoolean(index, node.booleanValue());
    } else if (node.isIntegralNumber() && node.canConvertToLong()) {
      statement.setLong(index, node.longValue());
    } else if (node.isNumber()) {
      bindTyped(
          statement,
          index,
          node.isDouble() || node.isFloat() ? (Object) node.doubleValue() : node.decimalValue(),
          dialect);
    } else {
      statement.setString(index, node.toString());
    }
  }

  private static boolean isNull(Object value) {
    return value == null
        || (value instanceof JsonNode node && (node.isNull() || node.isMissingNode()));
  }

  /** The text of a value bound inside a string literal. */
  static String text(Object value) {
    if (value instanceof String s) { // instanceof, not a pattern switch: see bindTyped
      return s;
    } else if (value instanceof BigDecimal d) {
      return d.toPlainString();
    } else if (value instanceof TemporalAccessor t) {
      return JsonValues.iso(t);
    } else if (value instanceof JsonNode node) {
      return node.isString() ? node.stringValue() : node.toString();
    }
    return value.toString();
  }
}
