package dev.svc.compile;

import dev.svc.model.ConnectorKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether an SQL statement reads rows in no stated order: a query ({@code SELECT}, {@code WITH})
 * reading a table ({@code FROM}) with no {@code ORDER BY} of its own, all outside strings, quoted
 * names, comments and parentheses; not one that returns at most one row ({@code LIMIT 1}, an
 * aggregate without {@code GROUP BY}, a lookup by key: a top-level {@code WHERE} without {@code OR}
 * that compares a column named {@code id} or {@code …_id} with {@code =}). A simple check of the
 * text (docs/results.md "Cursors"), not a parser: {@code ORDER BY} inside a subquery or a window
 * does not order the result.
 */
final class SqlOrdering {
  private SqlOrdering() {}

  /** Whether {@code sql} returns rows from a table without an {@code ORDER BY}. */
  static boolean readsUnorderedRows(String sql, ConnectorKind dialect) {
    List<String> words = topLevelWords(sql, dialect);
    if (words.isEmpty() || !(words.get(0).equals("SELECT") || words.get(0).equals("WITH"))) {
      return false;
    }
    boolean readsTable = false;
    boolean aggregates = false;
    boolean groupsOrWindows = false;
    boolean inWhere = false;
    boolean lookup = false;
    boolean eitherOr = false;
    for (int i = 0; i < words.size(); i++) {
      String word = words.get(i);
      String next = i + 1 < words.size() ? words.get(i + 1) : "";
      if (word.equals("ORDER") && next.equals("BY")) {
        return false;
      }
      if (word.equals("WHERE")) {
        inWhere = true;
      } else if (CLAUSE_ENDS.contains(word)) {
        inWhere = false;
      } else if (inWhere && word.equals("=") && i > 0 && isKeyName(words.get(i - 1))) {
        lookup = true;
      } else if (inWhere && word.equals("OR")) {
        eitherOr = true;
      }
      if (word.equals("LIMIT") && (next.equals("1") || next.equals("0"))) {
        return false; // at most one row
      }
      aggregates |= !readsTable && AGGREGATES.contains(word);
      groupsOrWindows |= (word.equals("GROUP") && next.equals("BY")) || word.equals("OVER");
      readsTable |= word.equals("FROM");
    }
    if (lookup && !eitherOr) {
      return false; // `WHERE id = ?`: a lookup by key, at most a row or a few
    }
    // an aggregate without GROUP BY (`SELECT count(*) FROM t`) is one row
    return readsTable && !(aggregates && !groupsOrWindows);
  }

  /** Words that end a {@code WHERE} clause. */
  private static final Set<String> CLAUSE_ENDS =
      Set.of("GROUP", "HAVING", "LIMIT", "UNION", "INTERSECT", "EXCEPT", "WINDOW", "FETCH");

  /**
   * A column name that names a key: {@code id}, or ending in {@code _id} ({@code product_id}),
   * possibly qualified ({@code p.id} arrives as {@code P}, then {@code ID}).
   */
  private static boolean isKeyName(String word) {
    return word.equals("ID") || word.endsWith("_ID");
  }

  /** Aggregate functions: in a select list without {@code GROUP BY}, the result is one row. */
  private static final Set<String> AGGREGATES =
      Set.of("COUNT", "SUM", "AVG", "MIN", "MAX", "TOTAL", "BOOL_AND", "BOOL_OR", "EVERY");

  /** The words outside parentheses, strings, quoted names and comments, upper-cased. */
  static List<String> topLevelWords(String sql, ConnectorKind dialect) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    int depth = 0;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      int skipTo = -1;
      if (c == '\'' || c == '"' || (c == '`' && dialect == ConnectorKind.MYSQL)) {
        skipTo = closingQuote(sql, i, c, dialect == ConnectorKind.MYSQL && c == '\'');
      } else if (sql.startsWith("--", i) || (c == '#' && dialect == ConnectorKind.MYSQL)) {
        int eol = sql.indexOf('\n', i);
        skipTo = eol < 0 ? n : eol;
      } else if (sql.startsWith("/*", i)) {
        int close = sql.indexOf("*/", i + 2);
        skipTo = close < 0 ? n : close + 2;
      } else if (c == '$' && dialect == ConnectorKind.POSTGRES) {
        int tagEnd = sql.indexOf('$', i + 1);
        String tag = tagEnd < 0 ? "" : sql.substring(i, tagEnd + 1);
        if (tag.matches("\\$[A-Za-z_]*\\$")) {
          int close = sql.indexOf(tag, tagEnd + 1);
          skipTo = close < 0 ? n : close + tag.length();
        }
      }
      if (skipTo >= 0 || !(Character.isLetterOrDigit(c) || c == '_')) {
        if (!word.isEmpty()) {
          if (depth == 0) {
            words.add(word.toString().toUpperCase(Locale.ROOT));
          }
          word.setLength(0);
        }
      }
      if (skipTo >= 0) {
        i = skipTo;
        continue;
      }
      if (Character.isLetterOrDigit(c) || c == '_') {
        word.append(c);
      } else if (c == '=' && depth == 0 && isPlainEquals(sql, i)) {
        words.add("=");
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth = Math.max(0, depth - 1);
      }
      i++;
    }
    if (!word.isEmpty() && depth == 0) {
      words.add(word.toString().toUpperCase(Locale.ROOT));
    }
    return words;
  }

  /** Whether the {@code =} at {@code i} is an equality of its own, not part of {@code <=} etc. */
  private static boolean isPlainEquals(String sql, int i) {
    char before = i > 0 ? sql.charAt(i - 1) : ' ';
    char after = i + 1 < sql.length() ? sql.charAt(i + 1) : ' ';
    return "<>!=:".indexOf(before) < 0 && after != '=';
  }

  /** The index after the quote closing the one at {@code start}; a doubled quote is inside. */
  private static int closingQuote(String sql, int start, char quote, boolean backslashEscapes) {
    int i = start + 1;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (backslashEscapes && c == '\\') {
        i += 2;
      } else if (c == quote && i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
        i += 2;
      } else if (c == quote) {
        return i + 1;
      } else {
        i++;
      }
    }
    return sql.length();
  }
}
