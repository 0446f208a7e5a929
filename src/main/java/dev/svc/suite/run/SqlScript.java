package dev.svc.suite.run;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SQL script into its statements at each {@code ;} outside quotes ({@code '…'}, {@code
 * "…"}, {@code `…`}), comments ({@code -- …}, {@code /* … *}{@code /}) and PostgreSQL dollar quotes
 * ({@code $$…$$}, {@code $tag$…$tag$}).
 */
final class SqlScript {
  private SqlScript() {}

  /**
   * One statement.
   *
   * @param line the line it starts on (1-based), for messages
   */
  record Part(String text, int line) {}

  static List<Part> statements(String script) {
    List<Part> parts = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int line = 1;
    int startLine = -1;
    int i = 0;
    int n = script.length();
    while (i < n) {
      char c = script.charAt(i);
      if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
        int end = script.indexOf('\n', i);
        i = end < 0 ? n : end; // the newline itself is read next
        continue;
      }
      if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
        int end = script.indexOf("*/", i + 2);
        int stop = end < 0 ? n : end + 2;
        line += count(script, i, stop);
        current.append(' ');
        i = stop;
        continue;
      }
      if (c == ';') {
        add(parts, current, startLine);
        current.setLength(0);
        startLine = -1;
        i++;
        continue;
      }
      if (startLine < 0 && !Character.isWhitespace(c)) {
        startLine = line;
      }
      int stop = i + 1;
      if (c == '\'' || c == '"' || c == '`') {
        stop = closing(script, i + 1, String.valueOf(c));
      } else if (c == '$') {
        int tagEnd = script.indexOf('$', i + 1);
        if (tagEnd > 0 && script.substring(i + 1, tagEnd).matches("[A-Za-z_0-9]*")) {
          String tag = script.substring(i, tagEnd + 1);
          stop = closing(script, tagEnd + 1, tag);
        }
      }
      line += count(script, i, stop);
      current.append(script, i, stop);
      i = stop;
    }
    add(parts, current, startLine);
    return parts;
  }

  /** Where the quote that ends at the next {@code close} stops (a doubled quote stays inside). */
  private static int closing(String script, int from, String close) {
    int at = from;
    while (true) {
      int end = script.indexOf(close, at);
      if (end < 0) {
        return script.length();
      }
      if (close.length() == 1
          && end + 1 < script.length()
          && script.charAt(end + 1) == close.charAt(0)) {
        at = end + 2;
        continue;
      }
      return end + close.length();
    }
  }

  private static int count(String script, int from, int to) {
    int lines = 0;
    for (int i = from; i < to; i++) {
      if (script.charAt(i) == '\n') {
        lines++;
      }
    }
    return lines;
  }

  private static void add(List<Part> parts, StringBuilder statement, int line) {
    String text = statement.toString().strip();
    if (!text.isEmpty()) {
      parts.add(new Part(text, line));
    }
  }
}
