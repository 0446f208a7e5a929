package dev.svc.compile;

import dev.svc.model.ConnectorKind;
import java.util.ArrayList;
import java.util.List;
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

  /**
   * The words, numbers and plain {@code =} of {@code sql} outside parentheses, strings, quoted
   * names and comments ({@link SqlWords}), words upper-cased.
   */
  static List<String> topLevelWords(String sql, ConnectorKind dialect) {
    List<String> words = new ArrayList<>();
    for (SqlWords.Token token : SqlWords.tokens(sql, dialect)) {
      if (token.depth() == 0
          && (token.kind() != SqlWords.Token.Kind.SYMBOL || token.text().equals("="))) {
        words.add(token.text());
      }
    }
    return words;
  }
}
