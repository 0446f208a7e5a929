package dev.svc.connector;

import dev.svc.json.Jackson;
import dev.svc.model.Statement;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonInvalidOperationException;
import org.bson.BsonValue;
import org.bson.json.JsonParseException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Puts input values into a MongoDB statement (docs/decisions.md "Placeholders"): a placeholder
 * standing as a JSON value becomes the value's (extended) JSON encoding, one inside a JSON string
 * the value's text, JSON-escaped. Values are scalars, dates or arrays of scalars, so a value can
 * never add a key or an operator: a string such as {@code {"$ne": null}} stays a string.
 */
final class MongoCommands {
  private static final JsonMapper JSON = Jackson.MAPPER;

  private MongoCommands() {}

  /** A command ready to run: the database it runs on and the command document. */
  record Command(String database, BsonDocument command) {
    /** The command's name: its first key. */
    String name() {
      return command.getFirstKey();
    }
  }

  /**
   * The statement with {@code values} in place, parsed as extended JSON.
   *
   * @throws StatementFailedException when an input has no value, a value cannot stand where it is,
   *     or the result is not a valid statement
   */
  static Command render(Statement.Mongo statement, Map<String, Object> values) {
    StringBuilder json = new StringBuilder(statement.source().length() + 32);
    for (Statement.Segment segment : statement.segments()) {
      switch (segment) {
        case Statement.Literal literal -> json.append(literal.text());
        case Statement.Placeholder placeholder -> {
          String input = placeholder.input();
          if (!values.containsKey(input)) {
            throw failure("the statement uses input `" + input + "`, which has no value");
          }
          Object value = values.get(input);
          if (placeholder.insideString()) {
            if (value == null) {
              throw failure(
                  "the statement uses input `" + input + "` inside a string, but it has no value");
            }
            String quoted = JSON.writeValueAsString(ParameterBinder.text(value));
            json.append(quoted, 1, quoted.length() - 1);
          } else {
            json.append(encode(value, input));
          }
        }
      }
    }
    BsonDocument document;
    try {
      document = BsonDocument.parse(json.toString());
    } catch (JsonParseException | BsonInvalidOperationException | IllegalArgumentException e) {
      throw failure(
          "the MongoDB statement is not valid extended JSON with its inputs in place: "
              + reason(e)
              + "; an {\"$oid\": …} needs 24 hex digits");
    }
    BsonValue database = document.get("database");
    if (database == null || !database.isString() || database.asString().getValue().isBlank()) {
      throw failure("the MongoDB statement needs a non-empty string `database`");
    }
    BsonValue command = document.get("command");
    if (command == null || !command.isDocument() || command.asDocument().isEmpty()) {
      throw failure("the MongoDB statement needs an object `command` with the command name first");
    }
    return new Command(database.asString().getValue(), command.asDocument());
  }

  /**
   * The command to run for {@code window}: a {@code find} without a {@code limit} of its own gets
   * the window's end ({@link StatementOptions#readLimit()}) as its limit, so the server produces no
   * more; any other command is run as written (its rows past the window are not fetched).
   */
  static BsonDocument limited(Command command, StatementOptions window) {
    BsonDocument document = command.command();
    long end = window.readLimit();
    if (end == Long.MAX_VALUE || !command.name().equals("find") || document.containsKey("limit")) {
      return document;
    }
    return document.clone().append("limit", new BsonInt64(end));
  }

  /** The JSON text standing for {@code value} where a JSON value belongs. */
  static String encode(Object value, String input) {
    return switch (value) {
      case null -> "null";
      case String s -> JSON.writeValueAsString(s);
      case Long l -> Long.toString(l);
      case Integer i -> Integer.toString(i);
      case Double d ->
          Double.isFinite(d)
              ? Double.toString(d)
              : "{\"$numberDouble\": \""
                  + (d.isNaN() ? "NaN" : d > 0 ? "Infinity" : "-Infinity")
                  + "\"}";
      case BigDecimal d -> "{\"$numberDecimal\": \"" + d.toPlainString() + "\"}";
      case Boolean b -> Boolean.toString(b);
      case OffsetDateTime t -> date(t.toInstant().toEpochMilli());
      case LocalDate d -> date(d.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli());
      case JsonNode node -> json(node, input);
      default -> JSON.writeValueAsString(ParameterBinder.text(value));
    };
  }

  private static String json(JsonNode node, String input) {
    if (node.isObject() || (node.isArray() && !scalars(node))) {
      throw failure(
          "input `"
              + input
              + "` holds "
              + (node.isObject() ? "an object" : "an array with objects")
              + ", which would change the MongoDB statement's structure; pass scalar values"
              + " (or an array of them)");
    }
    if (node.isArray()) {
      return node.toString();
    }
    return encode(scalar(node), input);
  }

  private static boolean scalars(JsonNode array) {
    for (JsonNode element : array) {
      if (element.isObject() || (element.isArray() && !scalars(element))) {
        return false;
      }
    }
    return true;
  }

  private static String date(long epochMillis) {
    return "{\"$date\": {\"$numberLong\": \"" + epochMillis + "\"}}";
  }

  private static String reason(RuntimeException e) {
    String message = SqlDialect.firstLine(e.getMessage());
    // bson quotes the offending text, which may be an input value: keep only its words
    int quote = message.indexOf(": ");
    return quote < 0 ? message : message.substring(0, quote);
  }

  private static StatementFailedException failure(String message) {
    return new StatementFailedException(message, false, null);
  }

  /** A scalar JSON value as the Java value connectors bind. */
  private static Object scalar(JsonNode node) {
    if (node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isString()) {
      return node.stringValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.longValue();
    }
    if (node.isDouble() || node.isFloat()) {
      return node.doubleValue();
    }
    return node.decimalValue();
  }
}
