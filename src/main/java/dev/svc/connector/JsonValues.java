package dev.svc.connector;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAccessor;
import java.util.Base64;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Java values as JSON nodes, the way results are written (docs/decisions.md "Results"): numbers
 * stay numbers, date-times become ISO-8601 strings, bytes become base64, non-finite floating values
 * become the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"} (JSON has no numbers
 * for them).
 */
final class JsonValues {
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonValues() {}

  static JsonNode number(double value) {
    return Double.isFinite(value) ? NODES.numberNode(value) : NODES.stringNode(nonFinite(value));
  }

  static JsonNode decimal(BigDecimal value) {
    // a negative scale (1E+3) would be written in scientific notation: keep integers plain
    return NODES.numberNode(value.scale() < 0 ? value.setScale(0) : value);
  }

  static JsonNode bytes(byte[] value) {
    return NODES.stringNode(Base64.getEncoder().encodeToString(value));
  }

  /** A value whose type is known only at run time (SQLite cells, array elements). */
  static JsonNode of(Object value) {
    return switch (value) {
      case null -> NODES.nullNode();
      case Long l -> NODES.numberNode(l.longValue());
      case Integer i -> NODES.numberNode(i.longValue());
      case Short s -> NODES.numberNode(s.longValue());
      case Byte b -> NODES.numberNode(b.longValue());
      case BigInteger b -> NODES.numberNode(b);
      case BigDecimal d -> decimal(d);
      case Double d -> number(d);
      case Float f -> number(Double.parseDouble(Float.toString(f)));
      case Boolean b -> NODES.booleanNode(b);
      case String s -> NODES.stringNode(s);
      case byte[] b -> bytes(b);
      case JsonNode n -> n;
      case Object[] elements -> {
        ArrayNode array = NODES.arrayNode(elements.length);
        for (Object element : elements) {
          array.add(of(element));
        }
        yield array;
      }
      case Timestamp t -> NODES.stringNode(iso(t.toLocalDateTime()));
      case Date d -> NODES.stringNode(iso(d.toLocalDate()));
      case Time t -> NODES.stringNode(iso(t.toLocalTime()));
      case TemporalAccessor t -> NODES.stringNode(iso(t));
      default -> NODES.stringNode(value.toString());
    };
  }

  /**
   * ISO-8601 text of a date or time; seconds are always written ({@code LocalDateTime.toString()}
   * would drop zero seconds).
   */
  static String iso(TemporalAccessor value) {
    return switch (value) {
      case OffsetDateTime t -> DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(t);
      case LocalDateTime t -> DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t);
      case LocalDate d -> DateTimeFormatter.ISO_LOCAL_DATE.format(d);
      case LocalTime t -> DateTimeFormatter.ISO_LOCAL_TIME.format(t);
      case OffsetTime t -> DateTimeFormatter.ISO_OFFSET_TIME.format(t);
      case Instant i -> DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(i.atOffset(ZoneOffset.UTC));
      case ZonedDateTime z -> DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(z.toOffsetDateTime());
      default -> value.toString();
    };
  }

  private static String nonFinite(double value) {
    return Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  }
}
