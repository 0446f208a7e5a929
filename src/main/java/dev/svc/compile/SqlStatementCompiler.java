package dev.svc.compile;

import dev.svc.compile.StatementText.InputPlaceholder;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles an SQL statement: each placeholder becomes a JDBC {@code ?}; inside a string literal,
 * the literal becomes a concatenation of its parts. The lexer knows each dialect's quoting and
 * comments (backticks and {@code #} comments in MySQL, dollar quotes and the {@code ??} operator
 * escape in PostgreSQL), so that a placeholder is never taken for text or text for a placeholder.
 */
final class SqlStatementCompiler {
  private static final Pattern DOLLAR_TAG = Pattern.compile("\\$[A-Za-z_]*\\$");

  private static final String NOT_A_NAME = "a placeholder cannot stand for a table or column name";
  private static final String BOUND_AS_PARAMETERS =
      "values are always bound as parameters; choose between fixed statements with separate tools";

  private final StatementText statement;
  private final String source;
  private final ConnectorKind dialect;
  private final StringBuilder out;
  private final List<Statement.Parameter> parameters = new ArrayList<>();

  /**
   * @param dialect {@code POSTGRES}, {@code MYSQL} or {@code SQLITE}
   */
  SqlStatementCompiler(StatementText statement, ConnectorKind dialect) {
    this.statement = statement;
    this.source = statement.source();
    this.dialect = dialect;
    this.out = new StringBuilder(source.length());
  }

  /** The statement; empty when a problem was reported. */
  Optional<Statement.Sql> compile() {
    boolean ok = true;
    int depth = 0; // parentheses, to tell `FROM t` from `EXTRACT(YEAR FROM d)`
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (statement.opensPlaceholder(i)) {
        Optional<InputPlaceholder> p = statement.placeholderAt(i);
        if (p.isEmpty()) {
          return Optional.empty();
        }
        Optional<String> keyword = identifierPosition(out, depth);
        if (keyword.isPresent()) {
          statement.error(
              "invalid-placeholder",
              NOT_A_NAME + " (after " + keyword.get() + ")",
              BOUND_AS_PARAMETERS);
          ok = false;
        }
        out.append('?');
        parameters.add(new Statement.Parameter(p.get().input(), false));
        i = p.get().end();
      } else if (c == '\'') {
        int close = literal(i);
        if (close < 0) {
          return Optional.empty();
        }
        i = close;
      } else if (c == '"' || (c == '`' && dialect == ConnectorKind.MYSQL)) {
        int close = closing(source, i + 1, c);
        String quoted = source.substring(i, close < 0 ? n : close + 1);
        if (quoted.contains("{{")) {
          statement.error(
              "invalid-placeholder", NOT_A_NAME + " (" + quoted + ")", BOUND_AS_PARAMETERS);
          ok = false;
        }
        out.append(quoted);
        i = close < 0 ? n : close + 1;
      } else if (source.startsWith("--", i) || (c == '#' && dialect == ConnectorKind.MYSQL)) {
        int eol = source.indexOf('\n', i);
        i = copy(i, eol < 0 ? n : eol);
      } else if (source.startsWith("/*", i)) {
        int close = source.indexOf("*/", i + 2);
        i = copy(i, close < 0 ? n : close + 2);
      } else if (c == '$' && dialect == ConnectorKind.POSTGRES && dollarTag(i).isPresent()) {
        String tag = dollarTag(i).get();
        int close = source.indexOf(tag, i + tag.length());
        int end = close < 0 ? n : close + tag.length();
        if (source.substring(i, end).contains("{{")) {
          statement.error(
              "invalid-placeholder",
              "placeholders inside dollar-quoted strings are not supported",
              "move the value out of the $-quoted body and bind it where it is used");
          ok = false;
        }
        i = copy(i, end);
      } else if (c == '?') {
        if (dialect == ConnectorKind.POSTGRES && source.startsWith("??", i)) {
          out.append("??");
          i += 2;
          continue;
        }
        statement.error(
            "invalid-statement",
            "the statement contains a bare `?`, which the driver would take as a parameter",
            dialect == ConnectorKind.POSTGRES
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

  /** Copies the source from {@code start} to {@code end} unchanged; returns {@code end}. */
  private int copy(int start, int end) {
    out.append(source, start, end);
    return end;
  }

  /**
   * The keyword before a placeholder when it puts the placeholder where a table or column name
   * belongs: bound there, the value would be a syntax error ({@code FROM ?}) or a constant that
   * silently changes nothing ({@code ORDER BY ?}). {@code FROM} inside parentheses ({@code
   * EXTRACT(YEAR FROM ?)}) and {@code IS DISTINCT FROM ?} take values.
   */
  private static Optional<String> identifierPosition(CharSequence before, int depth) {
    int start = startOfWordBefore(before, before.length());
    String upper = wordBefore(before, before.length()).toUpperCase(Locale.ROOT);
    String previous = wordBefore(before, start).toUpperCase(Locale.ROOT);
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
    return text.subSequence(startOfWordBefore(text, stop), stop).toString();
  }

  /** Where the word ending just before {@code end} starts, skipping whitespace. */
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
  private int literal(int start) {
    List<String> parts = new ArrayList<>(); // literal chunks (quoted) and "?" for parameters
    StringBuilder chunk = new StringBuilder();
    int i = start + 1;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (c == '\'' && i + 1 < n && source.charAt(i + 1) == '\'') {
        chunk.append("''");
        i += 2;
      } else if (c == '\\' && dialect == ConnectorKind.MYSQL && i + 1 < n) {
        chunk.append(c).append(source.charAt(i + 1));
        i += 2;
      } else if (c == '\'') {
        break;
      } else if (statement.opensPlaceholder(i)) {
        Optional<InputPlaceholder> p = statement.placeholderAt(i);
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
      statement.error("invalid-statement", "a string literal opened with ' is never closed");
      return -1;
    }
    if (!parts.contains("?")) {
      out.append('\'').append(chunk).append('\'');
      return i + 1;
    }
    if (!chunk.isEmpty()) {
      parts.add("'" + chunk + "'");
    }
    if (dialect == ConnectorKind.MYSQL) {
      out.append("CONCAT(").append(String.join(", ", parts)).append(')');
    } else {
      List<String> typed = parts.stream().map(p -> p.equals("?") ? "CAST(? AS TEXT)" : p).toList();
      out.append('(').append(String.join(" || ", typed)).append(')');
    }
    return i + 1;
  }

  /** The index of the quote closing a quoted name (a doubled quote is part of it), or -1. */
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

  /** The dollar-quote tag ({@code $$}, {@code $body$}) starting at {@code start}, if one does. */
  private Optional<String> dollarTag(int start) {
    Matcher m = DOLLAR_TAG.matcher(source);
    return m.find(start) && m.start() == start ? Optional.of(m.group()) : Optional.empty();
  }
}
