package dev.svc.compile;

import dev.svc.json.Jackson;
import dev.svc.model.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Compiles a MongoDB statement, a JSON object {@code {"database": …, "command": {…}}}: a
 * placeholder standing as a value becomes a JSON value, one inside a string becomes escaped string
 * content, and one in an object key is refused (values never change the document's structure). The
 * JSON is checked with each placeholder replaced by a dummy value.
 *
 * <p>A placeholder naming the database or what the command acts on (its collection) is refused, as
 * SQL placeholders are never identifiers; so is a placeholder in a string MongoDB runs as
 * JavaScript ({@code $where}, the {@code body} of {@code $function}, the functions of {@code
 * $accumulator} and of {@code mapReduce}) is refused too: there a value would be spliced into code,
 * not bound (a name of {@code ' || sleep(1e9) || '}).
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
    StringBuilder marked = new StringBuilder(); // the same with each placeholder as MARK
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
        marked.append(inString ? MARK_ESCAPED : "\"" + MARK_ESCAPED + "\"");
        stringHasPlaceholder |= inString;
        continue;
      }
      if (inString && c == '\\' && i + 1 < source.length()) {
        segments.append(c).append(source.charAt(i + 1));
        probe.append(c).append(source.charAt(i + 1));
        marked.append(c).append(source.charAt(i + 1));
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
      marked.append(c);
      i++;
    }
    if (!checked(statement, probe.toString())) {
      return Optional.empty();
    }
    JsonNode tree = JSON.readTree(marked.toString());
    Optional<String> name = placeholderInName(tree);
    if (name.isPresent()) {
      statement.error(
          "invalid-placeholder",
          "a placeholder cannot name " + name.get(),
          "placeholders are values, never names: write one tool per database and collection");
      return Optional.empty();
    }
    Optional<String> code = placeholderInCode(tree.path("command"));
    if (code.isPresent()) {
      statement.error(
          "invalid-placeholder",
          "a placeholder in "
              + code.get()
              + " would be spliced into JavaScript that MongoDB runs, not bound as a value",
          "pass the value as data: a filter on the field ({\"name\": {{ inputs.name }}}), or"
              + " `$function` with the value in its `args`");
      return Optional.empty();
    }
    return Optional.of(new Statement.Mongo(source, segments.build()));
  }

  /** What a placeholder stands for in {@code marked}: a character no statement holds. */
  private static final char MARK = '\u0001';

  private static final String MARK_ESCAPED = "\\u0001";

  /** The fields of {@code $accumulator} and of a {@code mapReduce} command that are code. */
  private static final List<String> ACCUMULATOR_CODE =
      List.of("init", "accumulate", "merge", "finalize");

  private static final List<String> MAP_REDUCE_CODE = List.of("map", "reduce", "finalize");

  /**
   * What a placeholder would name in {@code statement}, if anything: the database, or what the
   * command acts on (the value of its name: a collection, or a cursor for {@code getMore}), which a
   * client must not choose, as a SQL placeholder can never be a table.
   */
  private static Optional<String> placeholderInName(JsonNode statement) {
    if (holdsMark(statement.path("database"))) {
      return Optional.of("the database");
    }
    JsonNode command = statement.path("command");
    String commandName = command.propertyNames().iterator().next();
    return holdsMark(command.path(commandName))
        ? Optional.of("what the command acts on (the value of `" + commandName + "`)")
        : collectionOfStage(command);
  }

  /**
   * Where in {@code node} a placeholder would name another collection an aggregation stage reads or
   * writes: {@code $lookup}'s and {@code $graphLookup}'s {@code from}, {@code $unionWith}'s
   * collection, {@code $out}'s and {@code $merge}'s target (a client must not choose where results
   * are written, nor what else is read).
   */
  private static Optional<String> collectionOfStage(JsonNode node) {
    if (!node.isContainer()) {
      return Optional.empty();
    }
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        JsonNode value = field.getValue();
        JsonNode named =
            switch (field.getKey()) {
              case "$lookup", "$graphLookup" -> value.path("from");
              case "$unionWith" -> value.isObject() ? value.path("coll") : value;
              case "$out" -> value;
              case "$merge" -> value.isObject() ? value.path("into") : value;
              default -> null;
            };
        if (named != null && holdsMark(named)) {
          return Optional.of("the collection of `" + field.getKey() + "`");
        }
      }
    }
    for (JsonNode child : node) {
      Optional<String> found = collectionOfStage(child);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** Where in {@code command} a placeholder sits in JavaScript, if anywhere. */
  private static Optional<String> placeholderInCode(JsonNode command) {
    if (command.isObject()
        && !command.isEmpty()
        && command.propertyNames().iterator().next().equalsIgnoreCase("mapReduce")) {
      for (String field : MAP_REDUCE_CODE) {
        if (holdsMark(command.path(field))) {
          return Optional.of("the `" + field + "` function of `mapReduce`");
        }
      }
    }
    return inCode(command);
  }

  private static Optional<String> inCode(JsonNode node) {
    if (node.isArray()) {
      for (JsonNode element : node) {
        Optional<String> found = inCode(element);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    if (!node.isObject()) {
      return Optional.empty();
    }
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      JsonNode value = field.getValue();
      switch (field.getKey()) {
        case "$where" -> {
          if (holdsMark(value)) {
            return Optional.of("`$where`");
          }
        }
        case "$function" -> {
          if (holdsMark(value.path("body"))) {
            return Optional.of("the `body` of `$function`");
          }
        }
        case "$accumulator" -> {
          for (String code : ACCUMULATOR_CODE) {
            if (holdsMark(value.path(code))) {
              return Optional.of("the `" + code + "` function of `$accumulator`");
            }
          }
        }
        default -> {}
      }
      Optional<String> found = inCode(value);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private static boolean holdsMark(JsonNode node) {
    if (node.isString()) {
      return node.stringValue().indexOf(MARK) >= 0;
    }
    for (JsonNode child : node) {
      if (holdsMark(child)) {
        return true;
      }
    }
    return false;
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
