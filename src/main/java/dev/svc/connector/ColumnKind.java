package dev.svc.connector;

import dev.svc.json.Jackson;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * How one result column becomes JSON. Chosen once per column from the result's metadata (by {@link
 * SqlDialect#columnKind}), then applied to every row: no per-row type inspection or reflection.
 */
enum ColumnKind {
  INTEGER,
  DECIMAL,
  /** Single precision: read as {@code float} so 1.1 stays 1.1 instead of 1.100000023841858. */
  FLOAT,
  DOUBLE,
  BOOLEAN,
  STRING,
  DATE,
  TIME,
  OFFSET_TIME,
  /** A date-time without zone: {@code 2024-05-01T12:30:00}. */
  TIMESTAMP,
  /** A date-time with offset: {@code 2024-05-01T12:30:00Z}. */
  TIMESTAMPTZ,
  /** A point in time the driver gives as {@link Timestamp} (MySQL TIMESTAMP), written in UTC. */
  INSTANT,
  BYTES,
  JSON,
  ARRAY,
  /** Typed per value, not per column (SQLite's dynamic typing). */
  DYNAMIC;

  private static final JsonMapper JSON_READER = Jackson.MAPPER;

  /** The kind implied by the standard JDBC type; dialects refine it by type name. */
  static ColumnKind standard(ResultSetMetaData meta, int column) throws SQLException {
    return switch (meta.getColumnType(column)) {
      case Types.BOOLEAN -> BOOLEAN;
      case Types.BIT -> meta.getPrecision(column) <= 1 ? BOOLEAN : INTEGER;
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER -> INTEGER;
      case Types.BIGINT -> meta.isSigned(column) ? INTEGER : DECIMAL;
      case Types.DECIMAL, Types.NUMERIC -> DECIMAL;
      case Types.REAL -> FLOAT;
      case Types.FLOAT, Types.DOUBLE -> DOUBLE;
      case Types.DATE -> DATE;
      case Types.TIME -> TIME;
      case Types.TIME_WITH_TIMEZONE -> OFFSET_TIME;
      case Types.TIMESTAMP -> TIMESTAMP;
      case Types.TIMESTAMP_WITH_TIMEZONE -> TIMESTAMPTZ;
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> BYTES;
      case Types.ARRAY -> ARRAY;
      default -> STRING;
    };
  }

  /**
   * The JSON Schema types {@link #read} writes for this kind besides {@code null}, in a tool's
   * output schema; empty when any JSON value may stand there.
   *
   * @param nonFinite whether the database has NaN and infinite numbers, which are written as
   *     strings (PostgreSQL)
   */
  List<String> jsonTypes(boolean nonFinite) {
    return switch (this) {
      case INTEGER -> List.of("integer");
      case DECIMAL, FLOAT, DOUBLE -> nonFinite ? List.of("number", "string") : List.of("number");
      case BOOLEAN -> List.of("boolean");
      case STRING, DATE, TIME, OFFSET_TIME, TIMESTAMP, TIMESTAMPTZ, INSTANT, BYTES ->
          List.of("string");
      case ARRAY -> List.of("array");
      case JSON, DYNAMIC -> List.of();
    };
  }

  /** Reads column {@code column} (1-based) of the current row. */
  JsonNode read(ResultSet row, int column) throws SQLException {
    return switch (this) {
      case INTEGER -> {
        long value = row.getLong(column);
        yield row.wasNull() ? JsonValues.NODES.nullNode() : JsonValues.NODES.numberNode(value);
      }
      case DECIMAL -> decimal(row, column);
      case FLOAT -> {
        float value = row.getFloat(column);
        yield row.wasNull()
            ? JsonValues.NODES.nullNode()
            : JsonValues.number(Double.parseDouble(Float.toString(value)));
      }
      case DOUBLE -> {
        double value = row.getDouble(column);
        yield row.wasNull() ? JsonValues.NODES.nullNode() : JsonValues.number(value);
      }
      case BOOLEAN -> {
        boolean value = row.getBoolean(column);
        yield row.wasNull() ? JsonValues.NODES.nullNode() : JsonValues.NODES.booleanNode(value);
      }
      case STRING -> string(row.getString(column));
      case DATE -> JsonValues.of(row.getObject(column, LocalDate.class));
      case TIME -> JsonValues.of(row.getObject(column, LocalTime.class));
      case OFFSET_TIME -> JsonValues.of(row.getObject(column, OffsetTime.class));
      case TIMESTAMP -> JsonValues.of(row.getObject(column, LocalDateTime.class));
      case TIMESTAMPTZ -> JsonValues.of(row.getObject(column, OffsetDateTime.class));
      case INSTANT -> {
        Timestamp value = row.getTimestamp(column);
        yield value == null
            ? JsonValues.NODES.nullNode()
            : JsonValues.NODES.stringNode(JsonValues.iso(value.toInstant()));
      }
      case BYTES -> {
        byte[] value = row.getBytes(column);
        yield value == null ? JsonValues.NODES.nullNode() : JsonValues.bytes(value);
      }
      case JSON -> json(row.getString(column));
      case ARRAY -> {
        Array value = row.getArray(column);
        yield value == null ? JsonValues.NODES.nullNode() : JsonValues.of(value.getArray());
      }
      case DYNAMIC -> JsonValues.of(row.getObject(column));
    };
  }

  private static JsonNode decimal(ResultSet row, int column) throws SQLException {
    BigDecimal value;
    try {
      value = row.getBigDecimal(column);
    } catch (SQLException notANumber) {
      return string(row.getString(column)); // PostgreSQL numeric 'NaN' / 'Infinity'
    }
    return value == null ? JsonValues.NODES.nullNode() : JsonValues.decimal(value);
  }

  private static JsonNode string(String value) {
    return value == null ? JsonValues.NODES.nullNode() : JsonValues.NODES.stringNode(value);
  }

  private static JsonNode json(String text) {
    if (text == null) {
      return JsonValues.NODES.nullNode();
    }
    try {
      return JSON_READER.readTree(text);
    } catch (JacksonException e) {
      return JsonValues.NODES.stringNode(text); // not JSON after all: keep the text
    }
  }
}
