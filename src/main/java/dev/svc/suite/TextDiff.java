package dev.svc.suite;

import java.util.ArrayList;
import java.util.List;

/**
 * A line diff of an expected and an actual text: lines both share start with two spaces, lines only
 * expected with {@code - }, lines only actual with {@code + } (longest common subsequence).
 */
public final class TextDiff {
  private TextDiff() {}

  /** Past this many lines on either side, the two texts are shown whole, one after the other. */
  static final int MAX_LINES = 2000;

  public static String unified(String expected, String actual) {
    String[] a = expected.split("\n", -1);
    String[] b = actual.split("\n", -1);
    if (a.length > MAX_LINES || b.length > MAX_LINES) {
      return prefixed("- ", a) + prefixed("+ ", b);
    }
    int[][] common = new int[a.length + 1][b.length + 1];
    for (int i = a.length - 1; i >= 0; i--) {
      for (int j = b.length - 1; j >= 0; j--) {
        common[i][j] =
            a[i].equals(b[j])
                ? common[i + 1][j + 1] + 1
                : Math.max(common[i + 1][j], common[i][j + 1]);
      }
    }
    List<String> lines = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i].equals(b[j])) {
        lines.add("  " + a[i++]);
        j++;
      } else if (i < a.length && (j == b.length || common[i + 1][j] >= common[i][j + 1])) {
        lines.add("- " + a[i++]);
      } else {
        lines.add("+ " + b[j++]);
      }
    }
    return String.join("\n", lines) + "\n";
  }

  private static String prefixed(String prefix, String[] lines) {
    StringBuilder out = new StringBuilder();
    for (String line : lines) {
      out.append(prefix).append(line).append('\n');
    }
    return out.toString();
  }
}
