package dev.svc.compile;

import dev.svc.json.Jackson;
import dev.svc.model.Statement;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Compiles a MongoDB statement, a JSON object {@code {"database": …, "command": {…}}}: a
 * placeholder standing as a value becomes a JSON value, one inside a string becomes escaped string
 * content, and one in an object key is refused (values never change the document's structure). The
 * JSON is checked with each placeholder replaced by a dummy value.
 */
final class MongoStatementCompiler {
  private static final JsonMapper JSON = Jackson.MAPPER;
  private static final String SHAPE_HINT =
      "write {\"database\": \"<db>\", \"command\": {\"<commandName>\": ...}}";

  private MongoStatementCompiler() {}

  /** The compiled command template; empty when a problem was reported. */
  static Optional<Statement.Mongo> compile(StatementText statement) {
    String source = statement.source();
    StatementText.Segments segments = new StatementText.Segments();
    StringBuilder probe = new StringBuilder(); // the JSON with placeholders as dummy values
    boolean inString = false;
    boolean stringHasPlaceholder = false;
    int i = 0;
    while (i < source.length()) {
      char c = source.charAt(i);
      if (statement.opensPlaceholder(i)) {
        i = statement.readPlaceholder(i, segments, inString);
        if (i < 0) {
          return Optional.empty();
        }
        probe.append(inString ? "x" : "null");
        stringHasPlaceholder |= inString;
        continue;
      }
      if (inString && c == '\\' && i + 1 < source.length()) {
        segments.append(c).append(source.charAt(i + 1));
        probe.append(c).append(source.charAt(i + 1));
        i += 2;
        continue;
      }
      if (c == '"') {
        if (inString && stringHasPlaceholder && nextNonSpace(source, i + 1) == ':') {
          statement.error(
              "invalid-placeholder",
              "a placeholder cannot be part of an object key",
              "values can never change the document's structure; put the placeholder in a value");
          return Optional.empty();
        }
        inString = !inString;
        stringHasPlaceholder = false;
      }
      segments.append(c);
      probe.append(c);
      i++;
    }
    return checked(statement, probe.toString())
        ? Optional.of(new Statement.Mongo(source, segments.build()))
        : Optional.empty();
  }

  /** Whether the probe is a JSON object naming a database and a command; reports what is not. */
  private static boolean checked(StatementText statement, String probe) {
    JsonNode json;
    try {
      json = JSON.readTree(probe);
    } catch (JacksonException e) {
      statement.error(
          "invalid-statement",
          "the MongoDB statement is not valid JSON: " + firstLine(e.getOriginalMessage()),
          SHAPE_HINT);
      return false;
    }
    if (json == null || !json.isObject()) {
      statement.error(
          "invalid-statement", "the MongoDB statement must be a JSON object", SHAPE_HINT);
      return false;
    }
    boolean ok = true;
    if (!json.path("database").isString()) {
      statement.error("invalid-statement", "the MongoDB statement needs a string field `database`");
      ok = false;
    }
    JsonNode command = json.path("command");
    if (!command.isObject() || command.isEmpty()) {
      statement.error(
          "invalid-statement",
          "the MongoDB statement needs an object field `command` whose first key is the command name",
          "e.g. \"command\": {\"find\": \"users\", \"filter\": {\"age\": {{ inputs.age }}}}");
      ok = false;
    }
    return ok;
  }

  private static String firstLine(String message) {
    String line = message == null ? "" : message.strip();
    int newline = line.indexOf('\n');
    return newline < 0 ? line : line.substring(0, newline).strip();
  }

  private static char nextNonSpace(String text, int from) {
    for (int i = from; i < text.length(); i++) {
      if (!Character.isWhitespace(text.charAt(i))) {
        return text.charAt(i);
      }
    }
    return 0;
  }
}
