package dev.svc.protocol.a2a;

import dev.svc.json.Json;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
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

  /**
   * The instants {@link #timestamp} writes by hand: years 1 to 9999 (the pattern's year of era).
   */
  private static final long MIN_FAST_SECOND = LocalDate.of(1, 1, 1).toEpochDay() * 86_400;

  private static final long MAX_FAST_SECOND =
      (LocalDate.of(9999, 12, 31).toEpochDay() + 1) * 86_400 - 1;

  private Wire() {}

  /**
   * {@code 2026-03-01T10:00:01.000Z}: UTC, milliseconds. Years 1–9999 are written by hand (a task
   * read from a shared store is parsed and written again on every {@code GetTask}, and {@link
   * DateTimeFormatter} costs microseconds each way); others through the formatter.
   */
  static String timestamp(Instant instant) {
    long seconds = instant.getEpochSecond();
    if (seconds < MIN_FAST_SECOND || seconds > MAX_FAST_SECOND) {
      return TIMESTAMP.format(instant.truncatedTo(ChronoUnit.MILLIS));
    }
    long day = Math.floorDiv(seconds, 86_400);
    int secondOfDay = Math.floorMod(seconds, 86_400);
    LocalDate date = LocalDate.ofEpochDay(day);
    char[] out = new char[24];
    digits(out, 0, date.getYear(), 4);
    out[4] = '-';
    digits(out, 5, date.getMonthValue(), 2);
    out[7] = '-';
    digits(out, 8, date.getDayOfMonth(), 2);
    out[10] = 'T';
    digits(out, 11, secondOfDay / 3600, 2);
    out[13] = ':';
    digits(out, 14, secondOfDay / 60 % 60, 2);
    out[16] = ':';
    digits(out, 17, secondOfDay % 60, 2);
    out[19] = '.';
    digits(out, 20, instant.getNano() / 1_000_000, 3);
    out[23] = 'Z';
    return new String(out);
  }

  private static void digits(char[] out, int at, int value, int width) {
    for (int i = at + width - 1; i >= at; i--) {
      out[i] = (char) ('0' + value % 10);
      value /= 10;
    }
  }

  /** The earliest and latest instants the task stores keep: milliseconds since 1970 in a long. */
  static final Instant MIN_TIMESTAMP = Instant.ofEpochMilli(Long.MIN_VALUE);

  static final Instant MAX_TIMESTAMP = Instant.ofEpochMilli(Long.MAX_VALUE);

  /**
   * An ISO-8601 timestamp, refused (invalid params) unless it is one and lies between {@link
   * #MIN_TIMESTAMP} and {@link #MAX_TIMESTAMP}: ISO-8601 reaches the year 999,999,999, and the
   * shared stores compare timestamps in epoch milliseconds, so {@code ListTasks} with {@code
   * statusTimestampAfter: "+999999999-12-31T23:59:59Z"} overflowed there and answered a server
   * fault, logged at error.
   */
  static Instant parseTimestamp(String text, String path) {
    Instant instant = parseUtc(text);
    if (instant == null) {
      instant = parseIso(text, path);
    }
    if (instant.isBefore(MIN_TIMESTAMP) || instant.isAfter(MAX_TIMESTAMP)) {
      throw A2aErrors.invalidParams(
          "`"
              + path
              + "` is out of range: timestamps go from "
              + MIN_TIMESTAMP
              + " to "
              + MAX_TIMESTAMP);
    }
    return instant;
  }

  private static Instant parseIso(String text, String path) {
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

  /**
   * The form svc and most clients write, {@code YYYY-MM-DDTHH:MM:SS[.fraction]Z}, read by hand;
   * {@code null} for anything else (an offset, a leap second, a date that does not exist), which
   * {@link OffsetDateTime#parse} then reads or refuses.
   */
  static Instant parseUtc(String text) {
    int length = text.length();
    if (length < 20
        || length > 30
        || text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || (text.charAt(10) != 'T' && text.charAt(10) != 't')
        || text.charAt(13) != ':'
        || text.charAt(16) != ':'
        || (text.charAt(length - 1) != 'Z' && text.charAt(length - 1) != 'z')) {
      return null;
    }
    int year = number(text, 0, 4);
    int month = number(text, 5, 2);
    int day = number(text, 8, 2);
    int hour = number(text, 11, 2);
    int minute = number(text, 14, 2);
    int second = number(text, 17, 2);
    if (year < 0
        || month < 1
        || month > 12
        || day < 1
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59) {
      return null;
    }
    int nanos = 0;
    if (length > 20) {
      int digits = length - 21;
      if (text.charAt(19) != '.' || digits < 1 || digits > 9) {
        return null;
      }
      int fraction = number(text, 20, digits);
      if (fraction < 0) {
        return null;
      }
      for (int i = digits; i < 9; i++) {
        fraction *= 10;
      }
      nanos = fraction;
    }
    LocalDate date;
    try {
      date = LocalDate.of(year, month, 1);
    } catch (DateTimeException e) {
      return null;
    }
    if (day > date.lengthOfMonth()) {
      return null;
    }
    long seconds = (date.toEpochDay() + day - 1) * 86_400 + hour * 3600 + minute * 60 + second;
    return Instant.ofEpochSecond(seconds, nanos);
  }

  /** The decimal number of {@code width} digits at {@code at}, or -1. */
  private static int number(String text, int at, int width) {
    int value = 0;
    for (int i = at; i < at + width; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
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

  /**
   * The most characters an identifier a client chooses may have ({@code messageId}, {@code
   * contextId}, a push config's {@code id}): identifiers are stored and indexed by the shared task
   * stores (PostgreSQL's index entries hold at most 2,704 bytes; 512 characters of UTF-8 stay
   * within it), listed and logged. A UUID has 36.
   */
  static final int MAX_ID_CHARS = 512;

  /** {@link #string}, at most {@link #MAX_ID_CHARS} characters. */
  static Optional<String> id(JsonNode object, String name, String path) {
    Optional<String> value = string(object, name, path);
    if (value.isPresent() && value.get().length() > MAX_ID_CHARS) {
      throw A2aErrors.invalidParams(
          "`"
              + path
              + "` is at most "
              + MAX_ID_CHARS
              + " characters (this one has "
              + value.get().length()
              + ")");
    }
    return value;
  }

  /** {@link #requiredString}, at most {@link #MAX_ID_CHARS} characters. */
  static String requiredId(JsonNode object, String name, String path) {
    String value = requiredString(object, name, path);
    return id(object, name, path).orElse(value);
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

  /**
   * The deepest a JSON value a client sends may nest ({@code data} parts, {@code metadata}): svc
   * writes it back inside envelopes of its own — a {@code ListTasks} page puts a part's {@code
   * data} eight levels deep — and Jackson writes at most 500 levels. A value of 494 levels was
   * read, stored, and then made every answer that showed it fail (a server fault): the {@code
   * SendMessage} that created it, its {@code GetTask}, and every {@code ListTasks} page of its
   * principal, for anonymous callers all of them, for the task's retention.
   */
  static final int MAX_JSON_DEPTH = 100;

  /**
   * The field as any JSON value, unless absent or {@code null}, at most {@link #MAX_JSON_DEPTH}
   * levels deep.
   */
  static Optional<JsonNode> shallow(JsonNode object, String name, String path) {
    Optional<JsonNode> value = field(object, name);
    value.ifPresent(v -> checkDepth(v, path));
    return value;
  }

  /** {@link #object}, at most {@link #MAX_JSON_DEPTH} levels deep. */
  static Optional<ObjectNode> shallowObject(JsonNode object, String name, String path) {
    Optional<ObjectNode> value = object(object, name, path);
    value.ifPresent(v -> checkDepth(v, path));
    return value;
  }

  private static void checkDepth(JsonNode value, String path) {
    if (deeperThan(value, MAX_JSON_DEPTH)) {
      throw A2aErrors.invalidParams(
          "`" + path + "` nests deeper than " + MAX_JSON_DEPTH + " levels, the most svc takes");
    }
  }

  /**
   * Whether {@code value} nests more than {@code levels} deep (a scalar 0, {@code {}} 1), a level
   * at a time without recursion, stopping at the first level past the bound.
   */
  static boolean deeperThan(JsonNode value, int levels) {
    List<JsonNode> level = List.of(value);
    for (int depth = 0; ; depth++) {
      List<JsonNode> next = new ArrayList<>();
      for (JsonNode node : level) {
        if (node.isContainer()) {
          if (depth == levels) {
            return true;
          }
          node.forEach(next::add);
        }
      }
      if (next.isEmpty()) {
        return false;
      }
      level = next;
    }
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
