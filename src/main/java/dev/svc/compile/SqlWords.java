package dev.svc.compile;

import dev.svc.model.ConnectorKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The words of an SQL text outside string literals, quoted identifiers and comments, upper-cased,
 * split into statements at {@code ;}: enough to tell what a statement does (its first keyword,
 * whether it writes) without parsing SQL. Knows each dialect's quoting as {@link
 * SqlStatementCompiler} does (backticks, {@code #} comments and backslash escapes in MySQL, dollar
 * quotes and nested block comments in PostgreSQL, brackets in SQLite).
 */
final class SqlWords {
  private SqlWords() {}

  /**
   * A piece of SQL text outside literals, quoted names and comments: a word (upper-cased), a
   * number, or one of the symbols {@code (}, {@code )}, {@code ;} and a plain {@code =} (not part
   * of {@code <=}, {@code >=}, {@code !=}, {@code ==}, {@code :=}).
   *
   * @param depth how many parentheses are open around it ({@code (} counts from outside)
   */
  record Token(Kind kind, String text, int depth) {
    enum Kind {
      WORD,
      NUMBER,
      SYMBOL
    }

    boolean is(Kind kind, String text) {
      return this.kind == kind && this.text.equals(text);
    }
  }

  /** The statements of {@code sql}, each the list of its words; empty statements are left out. */
  static List<List<String>> statements(String sql, ConnectorKind dialect) {
    List<List<String>> statements = new ArrayList<>();
    List<String> words = new ArrayList<>();
    for (Token token : tokens(sql, dialect)) {
      if (token.kind() == Token.Kind.WORD) {
        words.add(token.text());
      } else if (token.is(Token.Kind.SYMBOL, ";") && !words.isEmpty()) {
        statements.add(List.copyOf(words));
        words.clear();
      }
    }
    if (!words.isEmpty()) {
      statements.add(List.copyOf(words));
    }
    return statements;
  }

  /** The tokens of {@code sql}, in order. */
  static List<Token> tokens(String sql, ConnectorKind dialect) {
    List<Token> tokens = new ArrayList<>();
    int depth = 0;
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isLetter(c) || c == '_') {
        int end = i;
        while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
          end++;
        }
        boolean escapeString =
            end == i + 1 && (c == 'E' || c == 'e') && end < n && sql.charAt(end) == '\'';
        if (escapeString) { // PostgreSQL E'…' takes backslash escapes
          i = closing(sql, end + 1, '\'', true);
          continue;
        }
        tokens.add(
            new Token(Token.Kind.WORD, sql.substring(i, end).toUpperCase(Locale.ROOT), depth));
        i = end;
      } else if (c == '\'') {
        i = closing(sql, i + 1, '\'', dialect == ConnectorKind.MYSQL);
      } else if (c == '"') {
        i = closing(sql, i + 1, '"', false);
      } else if (c == '`' && dialect != ConnectorKind.POSTGRES) {
        i = closing(sql, i + 1, '`', false);
      } else if (c == '[' && dialect == ConnectorKind.SQLITE) {
        int close = sql.indexOf(']', i + 1);
        i = close < 0 ? n : close + 1;
      } else if (sql.startsWith("--", i) || (c == '#' && dialect == ConnectorKind.MYSQL)) {
        int eol = sql.indexOf('\n', i);
        i = eol < 0 ? n : eol + 1;
      } else if (sql.startsWith("/*", i)) {
        i = blockComment(sql, i, dialect == ConnectorKind.POSTGRES);
      } else if (c == '$' && dialect == ConnectorKind.POSTGRES && dollarTag(sql, i) > i) {
        String tag = sql.substring(i, dollarTag(sql, i));
        int close = sql.indexOf(tag, i + tag.length());
        i = close < 0 ? n : close + tag.length();
      } else if (Character.isDigit(c)) {
        int end = i;
        while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.')) {
          end++; // a number, or a number-like name part: not a keyword
        }
        tokens.add(new Token(Token.Kind.NUMBER, sql.substring(i, end), depth));
        i = end;
      } else {
        if (c == '(') {
          tokens.add(new Token(Token.Kind.SYMBOL, "(", depth++));
        } else if (c == ')') {
          depth = Math.max(0, depth - 1);
          tokens.add(new Token(Token.Kind.SYMBOL, ")", depth));
        } else if (c == ';') {
          tokens.add(new Token(Token.Kind.SYMBOL, ";", depth));
        } else if (c == '=' && isPlainEquals(sql, i)) {
          tokens.add(new Token(Token.Kind.SYMBOL, "=", depth));
        }
        i++;
      }
    }
    return tokens;
  }

  /** Whether the {@code =} at {@code i} is an equality of its own, not part of {@code <=} etc. */
  private static boolean isPlainEquals(String sql, int i) {
    char before = i > 0 ? sql.charAt(i - 1) : ' ';
    char after = i + 1 < sql.length() ? sql.charAt(i + 1) : ' ';
    return "<>!=:".indexOf(before) < 0 && after != '=';
  }

  /** The index after the quote closing one opened before {@code from}; doubled quotes escape. */
  private static int closing(String sql, int from, char quote, boolean backslashes) {
    int i = from;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (backslashes && c == '\\') {
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

  private static int blockComment(String sql, int start, boolean nested) {
    int depth = 0;
    int i = start;
    while (i < sql.length()) {
      if (sql.startsWith("/*", i)) {
        depth = nested ? depth + 1 : 1;
        i += 2;
      } else if (sql.startsWith("*/", i)) {
        i += 2;
        if (--depth == 0) {
          return i;
        }
      } else {
        i++;
      }
    }
    return sql.length();
  }

  /** The index after a dollar-quote tag ({@code $$}, {@code $body$}) at {@code i}, else i. */
  private static int dollarTag(String sql, int i) {
    int j = i + 1;
    while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
      if (j == i + 1 && Character.isDigit(sql.charAt(j))) {
        return i; // $1 is a parameter, not a tag
      }
      j++;
    }
    return j < sql.length() && sql.charAt(j) == '$' ? j + 1 : i;
  }
}
