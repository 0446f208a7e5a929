package dev.svc.compile;

import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.json.Jackson;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Compiles statements so that values can only ever be bound: SQL placeholders become JDBC
 * parameters (inside string literals, a concatenation), MongoDB placeholders become JSON values or
 * escaped string content, Redis placeholders stay inside one argument.
 */
final class StatementCompiler {
  private static final Pattern INPUT = Pattern.compile("\\s*inputs\\.([A-Za-z_][A-Za-z0-9_]*)\\s*");

  /** {@code {{ input.x }}}, a common slip for {@code {{ inputs.x }}}. */
  private static final Pattern SINGULAR =
      Pattern.compile("\\s*input\\.([A-Za-z_][A-Za-z0-9_]*)\\s*");

  private static final JsonMapper JSON = Jackson.MAPPER;

  private final Diagnostics diagnostics;

  StatementCompiler(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  Optional<Statement> compile(String source, ConnectorKind connector, Origin origin) {
    if (source.isBlank()) {
      diagnostics.error("invalid-statement", origin, "the statement is empty");
      return Optional.empty();
    }
    return switch (connector) {
      case POSTGRES, MYSQL, SQLITE -> sql(source, connector, origin).map(s -> s);
      case MONGODB -> mongo(source, origin).map(s -> s);
      case REDIS -> redis(source, origin).map(s -> s);
    };
  }

  /** Parses {@code {{ ... }}} at {@code start}; returns the input name and the end index. */
  private Optional<Placeholder> placeholderAt(String text, int start, Origin origin) {
    int end = text.indexOf("}}", start + 2);
    if (end < 0) {
      diagnostics.error(
          "invalid-placeholder",
          origin,
          "a placeholder opened with `{{` is never closed with `}}`");
      return Optional.empty();
    }
    String inner = text.substring(start + 2, end);
    Matcher m = INPUT.matcher(inner);
    if (!m.matches()) {
      String written = "{{" + inner + "}}";
      Matcher singular = SINGULAR.matcher(inner);
      String hint =
          inner.strip().startsWith("env.")
              ? "environment variables are not substituted in statements; keep secrets in the"
                  + " adapter's connection_string, or pass the value as an input"
              : singular.matches()
                  ? "did you mean `{{ inputs." + singular.group(1) + " }}`?"
                  : "write `{{ inputs.<name> }}` with the name of a declared input";
      diagnostics.error(
          "invalid-placeholder", origin, "`" + written + "` is not an input placeholder", hint);
      return Optional.empty();
    }
    return Optional.of(new Placeholder(m.group(1), end + 2));
  }

  private record Placeholder(String input, int end) {}

  // ---- SQL ----------------------------------------------------------------------------------

  private Optional<Statement.Sql> sql(String source, ConnectorKind connector, Origin origin) {
    StringBuilder out = new StringBuilder(source.length());
    List<Statement.Parameter> parameters = new ArrayList<>();
    boolean ok = true;
    int depth = 0; // parentheses, to tell `FROM t` from `EXTRACT(YEAR FROM d)`
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (source.startsWith("{{", i)) {
        Optional<Placeholder> p = placeholderAt(source, i, origin);
        if (p.isEmpty()) {
          return Optional.empty();
        }
        Optional<String> keyword = identifierPosition(out, depth);
        if (keyword.isPresent()) {
          diagnostics.error(
              "invalid-placeholder",
              origin,
              "a placeholder cannot stand for a table or column name (after " + keyword.get() + ")",
              "values are always bound as parameters; choose between fixed statements with separate tools");
          ok = false;
        }
        out.append('?');
        parameters.add(new Statement.Parameter(p.get().input(), false));
        i = p.get().end();
      } else if (c == '\'') {
        int close = literal(source, i, connector, out, parameters, origin);
        if (close < 0) {
          return Optional.empty();
        }
        i = close;
      } else if (c == '"' || (c == '`' && connector == ConnectorKind.MYSQL)) {
        int close = closing(source, i + 1, c);
        String quoted = source.substring(i, close < 0 ? n : close + 1);
        if (quoted.contains("{{")) {
          diagnostics.error(
              "invalid-placeholder",
              origin,
              "a placeholder cannot stand for a table or column name (" + quoted + ")",
              "values are always bound as parameters; choose between fixed statements with separate tools");
          ok = false;
        }
        out.append(quoted);
        i = close < 0 ? n : close + 1;
      } else if (source.startsWith("--", i) || (c == '#' && connector == ConnectorKind.MYSQL)) {
        int eol = source.indexOf('\n', i);
        int end = eol < 0 ? n : eol;
        out.append(source, i, end);
        i = end;
      } else if (source.startsWith("/*", i)) {
        int close = source.indexOf("*/", i + 2);
        int end = close < 0 ? n : close + 2;
        out.append(source, i, end);
        i = end;
      } else if (c == '$'
          && connector == ConnectorKind.POSTGRES
          && dollarTag(source, i).isPresent()) {
        String tag = dollarTag(source, i).get();
        int close = source.indexOf(tag, i + tag.length());
        int end = close < 0 ? n : close + tag.length();
        if (source.substring(i, end).contains("{{")) {
          diagnostics.error(
              "invalid-placeholder",
              origin,
              "placeholders inside dollar-quoted strings are not supported",
              "move the value out of the $-quoted body and bind it where it is used");
          ok = false;
        }
        out.append(source, i, end);
        i = end;
      } else if (c == '?') {
        if (connector == ConnectorKind.POSTGRES && source.startsWith("??", i)) {
          out.append("??");
          i += 2;
          continue;
        }
        diagnostics.error(
            "invalid-statement",
            origin,
            "the statement contains a bare `?`, which the driver would take as a parameter",
            connector == ConnectorKind.POSTGRES
                ? "write values as `{{ inputs.<name> }}`; for the jsonb `?` operator write `??`"
                : "write values as `{{ inputs.<name> }}`");
        ok = false;
        i++;
      } else {
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        out.append(c);
        i++;
      }
    }
    return ok
        ? Optional.of(new Statement.Sql(source, out.toString(), parameters))
        : Optional.empty();
  }

  /**
   * The keyword before a placeholder when it puts the placeholder where a table or column name
   * belongs: bound there, the value would be a syntax error ({@code FROM ?}) or a constant that
   * silently changes nothing ({@code ORDER BY ?}). {@code FROM} inside parentheses ({@code
   * EXTRACT(YEAR FROM ?)}) and {@code IS DISTINCT FROM ?} take values.
   */
  private static Optional<String> identifierPosition(CharSequence before, int depth) {
    int end = before.length();
    String word = wordBefore(before, end);
    String upper = word.toUpperCase(java.util.Locale.ROOT);
    int start = startOfWordBefore(before, end);
    String previous = wordBefore(before, start).toUpperCase(java.util.Locale.ROOT);
    return switch (upper) {
      case "JOIN", "INTO", "UPDATE", "TABLE" -> Optional.of(upper);
      case "FROM" ->
          depth == 0 && !previous.equals("DISTINCT") ? Optional.of(upper) : Optional.empty();
      case "BY" ->
          previous.equals("ORDER") || previous.equals("GROUP")
              ? Optional.of(previous + " BY")
              : Optional.empty();
      default -> Optional.empty();
    };
  }

  /** The word ending just before {@code end}, skipping whitespace; empty if none. */
  private static String wordBefore(CharSequence text, int end) {
    int stop = end;
    while (stop > 0 && Character.isWhitespace(text.charAt(stop - 1))) {
      stop--;
    }
    int start = stop;
    while (start > 0 && Character.isLetter(text.charAt(start - 1))) {
      start--;
    }
    return text.subSequence(start, stop).toString();
  }

  private static int startOfWordBefore(CharSequence text, int end) {
    int stop = end;
    while (stop > 0 && Character.isWhitespace(text.charAt(stop - 1))) {
      stop--;
    }
    while (stop > 0 && Character.isLetter(text.charAt(stop - 1))) {
      stop--;
    }
    return stop;
  }

  /**
   * Copies the string literal starting at {@code start}; a literal holding placeholders becomes a
   * concatenation of its parts. Returns the index after the literal, or -1 on error.
   */
  private int literal(
      String source,
      int start,
      ConnectorKind connector,
      StringBuilder out,
      List<Statement.Parameter> parameters,
      Origin origin) {
    List<String> parts = new ArrayList<>(); // literal chunks (quoted) and "?" for parameters
    StringBuilder chunk = new StringBuilder();
    int i = start + 1;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (c == '\'' && i + 1 < n && source.charAt(i + 1) == '\'') {
        chunk.append("''");
        i += 2;
      } else if (c == '\\' && connector == ConnectorKind.MYSQL && i + 1 < n) {
        chunk.append(c).append(source.charAt(i + 1));
        i += 2;
      } else if (c == '\'') {
        break;
      } else if (source.startsWith("{{", i)) {
        Optional<Placeholder> p = placeholderAt(source, i, origin);
        if (p.isEmpty()) {
          return -1;
        }
        if (!chunk.isEmpty()) {
          parts.add("'" + chunk + "'");
          chunk.setLength(0);
        }
        parts.add("?");
        parameters.add(new Statement.Parameter(p.get().input(), true));
        i = p.get().end();
      } else {
        chunk.append(c);
        i++;
      }
    }
    if (i >= n) {
      diagnostics.error(
          "invalid-statement", origin, "a string literal opened with ' is never closed");
      return -1;
    }
    if (!parts.contains("?")) {
      out.append('\'').append(chunk).append('\'');
      return i + 1;
    }
    if (!chunk.isEmpty()) {
      parts.add("'" + chunk + "'");
    }
    if (connector == ConnectorKind.MYSQL) {
      out.append("CONCAT(").append(String.join(", ", parts)).append(')');
    } else {
      List<String> typed = parts.stream().map(p -> p.equals("?") ? "CAST(? AS TEXT)" : p).toList();
      out.append('(').append(String.join(" || ", typed)).append(')');
    }
    return i + 1;
  }

  private static int closing(String text, int from, char quote) {
    for (int i = from; i < text.length(); i++) {
      if (text.charAt(i) == quote) {
        if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
          i++;
          continue;
        }
        return i;
      }
    }
    return -1;
  }

  private static Optional<String> dollarTag(String text, int start) {
    Matcher m = Pattern.compile("\\$[A-Za-z_]*\\$").matcher(text);
    return m.find(start) && m.start() == start ? Optional.of(m.group()) : Optional.empty();
  }

  // ---- MongoDB ------------------------------------------------------------------------------

  private Optional<Statement.Mongo> mongo(String source, Origin origin) {
    List<Statement.Segment> segments = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    StringBuilder probe = new StringBuilder(); // the JSON with placeholders as dummy values
    boolean inString = false;
    boolean stringHasPlaceholder = false;
    int i = 0;
    while (i < source.length()) {
      char c = source.charAt(i);
      if (source.startsWith("{{", i)) {
        Optional<Placeholder> p = placeholderAt(source, i, origin);
        if (p.isEmpty()) {
          return Optional.empty();
        }
        if (!literal.isEmpty()) {
          segments.add(new Statement.Literal(literal.toString()));
          literal.setLength(0);
        }
        segments.add(new Statement.Placeholder(p.get().input(), inString));
        probe.append(inString ? "x" : "null");
        stringHasPlaceholder |= inString;
        i = p.get().end();
        continue;
      }
      if (inString && c == '\\' && i + 1 < source.length()) {
        literal.append(c).append(source.charAt(i + 1));
        probe.append(c).append(source.charAt(i + 1));
        i += 2;
        continue;
      }
      if (c == '"') {
        if (inString && stringHasPlaceholder && nextNonSpace(source, i + 1) == ':') {
          diagnostics.error(
              "invalid-placeholder",
              origin,
              "a placeholder cannot be part of an object key",
              "values can never change the document's structure; put the placeholder in a value");
          return Optional.empty();
        }
        inString = !inString;
        stringHasPlaceholder = false;
      }
      literal.append(c);
      probe.append(c);
      i++;
    }
    if (!literal.isEmpty()) {
      segments.add(new Statement.Literal(literal.toString()));
    }
    JsonNode json;
    try {
      json = JSON.readTree(probe.toString());
    } catch (JacksonException e) {
      diagnostics.error(
          "invalid-statement",
          origin,
          "the MongoDB statement is not valid JSON: " + firstLine(e.getOriginalMessage()),
          "write {\"database\": \"<db>\", \"command\": {\"<commandName>\": ...}}");
      return Optional.empty();
    }
    if (json == null || !json.isObject()) {
      diagnostics.error(
          "invalid-statement",
          origin,
          "the MongoDB statement must be a JSON object",
          "write {\"database\": \"<db>\", \"command\": {\"<commandName>\": ...}}");
      return Optional.empty();
    }
    boolean ok = true;
    if (!json.path("database").isString()) {
      diagnostics.error(
          "invalid-statement", origin, "the MongoDB statement needs a string field `database`");
      ok = false;
    }
    JsonNode command = json.path("command");
    if (!command.isObject() || command.isEmpty()) {
      diagnostics.error(
          "invalid-statement",
          origin,
          "the MongoDB statement needs an object field `command` whose first key is the command name",
          "e.g. \"command\": {\"find\": \"users\", \"filter\": {\"age\": {{ inputs.age }}}}");
      ok = false;
    }
    return ok ? Optional.of(new Statement.Mongo(source, segments)) : Optional.empty();
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

  // ---- Redis --------------------------------------------------------------------------------

  private Optional<Statement.Redis> redis(String source, Origin origin) {
    List<List<Statement.Segment>> arguments = new ArrayList<>();
    int i = 0;
    int n = source.length();
    while (i < n) {
      while (i < n && Character.isWhitespace(source.charAt(i))) {
        i++;
      }
      if (i >= n) {
        break;
      }
      List<Statement.Segment> argument = new ArrayList<>();
      StringBuilder literal = new StringBuilder();
      boolean quoted = false;
      while (i < n && (quoted || !Character.isWhitespace(source.charAt(i)))) {
        char c = source.charAt(i);
        if (source.startsWith("{{", i)) {
          Optional<Placeholder> p = placeholderAt(source, i, origin);
          if (p.isEmpty()) {
            return Optional.empty();
          }
          if (!literal.isEmpty()) {
            argument.add(new Statement.Literal(literal.toString()));
            literal.setLength(0);
          }
          argument.add(new Statement.Placeholder(p.get().input(), quoted));
          i = p.get().end();
        } else if (c == '"') {
          quoted = !quoted;
          i++;
        } else if (quoted && c == '\\' && i + 1 < n) {
          char next = source.charAt(i + 1);
          literal.append(next == 'n' ? '\n' : next == 't' ? '\t' : next);
          i += 2;
        } else {
          literal.append(c);
          i++;
        }
      }
      if (quoted) {
        diagnostics.error(
            "invalid-statement", origin, "a double quote in the Redis command is never closed");
        return Optional.empty();
      }
      if (!literal.isEmpty() || argument.isEmpty()) {
        argument.add(new Statement.Literal(literal.toString()));
      }
      arguments.add(argument);
    }
    if (arguments.isEmpty()) {
      diagnostics.error("invalid-statement", origin, "the Redis command is empty");
      return Optional.empty();
    }
    if (arguments.getFirst().stream().anyMatch(s -> s instanceof Statement.Placeholder)) {
      diagnostics.error(
          "invalid-placeholder",
          origin,
          "the Redis command name cannot be a placeholder",
          "write the command (GET, HGETALL, …) literally; only its arguments take inputs");
      return Optional.empty();
    }
    return Optional.of(new Statement.Redis(source, arguments));
  }
}
