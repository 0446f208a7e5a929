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
 * <p>An input's placeholder naming the database or a collection (what the command acts on, or what
 * a stage reads or writes) is refused: a caller must not choose them, as a SQL placeholder is never
 * a table; a verified claim's may (a database per tenant). Any placeholder in a string MongoDB runs
 * as JavaScript ({@code $where}, the {@code body} of {@code $function}, the functions of {@code
 * $accumulator} and of {@code mapReduce}) is refused: there a value would be spliced into code, not
 * bound (a name of {@code ' || sleep(1e9) || '}).
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
        int start = i;
        i = statement.readPlaceholder(i, segments, inString);
        if (i < 0) {
          return Optional.empty();
        }
        // a placeholder read without a problem is an input's or, spelt so, a verified claim's
        boolean claim = source.substring(start + 2, i - 2).strip().startsWith(StatementText.CLAIMS);
        String mark = claim ? CLAIM_MARK_ESCAPED : MARK_ESCAPED;
        probe.append(inString ? "x" : "null");
        marked.append(inString ? mark : "\"" + mark + "\"");
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
          "a caller's input never chooses a name: write one tool per database and collection, or"
              + " name it by a verified claim ({{ auth.claims.<name> }})");
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

  /**
   * What a placeholder of a verified claim stands for in {@code marked}: the server, not the
   * caller, chooses its value, so it may name the database or a collection (a database per tenant,
   * from {@code {{ auth.claims.tenant }}}); in JavaScript it is refused like any other.
   */
  private static final char CLAIM_MARK = '\u0002';

  private static final String CLAIM_MARK_ESCAPED = "\\u0002";

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
    if (holdsInputMark(statement.path("database"))) {
      return Optional.of("the database");
    }
    JsonNode command = statement.path("command");
    String commandName = command.propertyNames().iterator().next();
    return holdsInputMark(command.path(commandName))
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
        if (named != null && holdsInputMark(named)) {
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

  /** Whether {@code node} holds a placeholder of any kind. */
  private static boolean holdsMark(JsonNode node) {
    return holds(node, MARK) || holds(node, CLAIM_MARK);
  }

  /** Whether {@code node} holds a placeholder of an input (a value the caller chooses). */
  private static boolean holdsInputMark(JsonNode node) {
    return holds(node, MARK);
  }

  private static boolean holds(JsonNode node, char mark) {
    if (node.isString()) {
      return node.stringValue().indexOf(mark) >= 0;
    }
    for (JsonNode child : node) {
      if (holds(child, mark)) {
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
