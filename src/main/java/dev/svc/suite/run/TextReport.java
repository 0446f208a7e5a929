package dev.svc.suite.run;

import dev.svc.suite.Mismatch;
import java.util.List;

/**
 * The readable report of a run: one progress line per suite as it ends, the details of every case
 * that did not pass under it (each expectation that failed, with a diff), and a summary line.
 *
 * <p>What the report quotes (case names, error messages, a resource's text, an agent's answer) may
 * hold control characters; they are written as {@code \\u001b}, never sent to the terminal or the
 * CI log as they are, where an ANSI sequence or a carriage return could rewrite a {@code FAIL} line
 * into something else.
 */
public final class TextReport {
  private TextReport() {}

  /** The lines of one suite: its progress line, then what went wrong in it. */
  public static String suite(SuiteResult suite) {
    StringBuilder out = new StringBuilder();
    String status = suite.passed() ? "PASS" : suite.errored() > 0 ? "ERROR" : "FAIL";
    out.append(status)
        .append("  ")
        .append(suite.name())
        .append("  ")
        .append(suite.file())
        .append("  (")
        .append(counts(suite))
        .append(")\n");
    suite.setupError().ifPresent(e -> out.append(indent(e, "  ")).append('\n'));
    for (CaseResult result : suite.cases()) {
      if (result.passed()) {
        continue;
      }
      out.append("  ")
          .append(result.error().isPresent() ? "ERROR " : "FAIL  ")
          .append(result.name())
          .append("  ")
          .append(result.origin())
          .append('\n');
      result.error().ifPresent(e -> out.append(indent(e, "    ")).append('\n'));
      for (Mismatch mismatch : result.mismatches()) {
        out.append("    ")
            .append(mismatch.expectation())
            .append(": ")
            .append(mismatch.message())
            .append(isDiff(mismatch.diff()) ? "  (- expected, + actual)" : "")
            .append('\n');
        if (!mismatch.diff().isEmpty()) {
          out.append(indent(mismatch.diff().stripTrailing(), "      ")).append('\n');
        }
      }
    }
    return visible(out.toString());
  }

  /**
   * {@code text} with control characters other than line feed and tab, and the bidirectional
   * overrides, written as {@code \\uXXXX}.
   */
  static String visible(String text) {
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints()
        .forEach(c -> {
          boolean hidden =
              c != '\n' && c != '\t' && Character.isISOControl(c)
                  || c >= 0x202A && c <= 0x202E
                  || c >= 0x2066 && c <= 0x2069;
          if (hidden) {
            out.append(String.format("\\u%04x", c));
          } else {
            out.appendCodePoint(c);
          }
        });
    return out.toString();
  }

  private static String counts(SuiteResult suite) {
    int total = suite.cases().size();
    if (suite.setupError().isPresent()) {
      return "did not run";
    }
    long bad = suite.cases().stream().filter(c -> !c.passed()).count();
    return bad == 0
        ? total + (total == 1 ? " case" : " cases")
        : bad + " of " + total + (total == 1 ? " case" : " cases") + " failed";
  }

  /** The summary line, e.g. {@code 3 suites, 7 cases: 6 passed, 1 failed, 0 errors}. */
  public static String summary(List<SuiteResult> suites) {
    long cases = 0;
    long passed = 0;
    long failed = 0;
    long errors = 0;
    for (SuiteResult suite : suites) {
      cases += suite.cases().size();
      passed += suite.cases().stream().filter(CaseResult::passed).count();
      failed += suite.failed();
      errors += suite.errored();
    }
    return plural(suites.size(), "suite")
        + ", "
        + plural(cases, "case")
        + ": "
        + passed
        + " passed, "
        + failed
        + " failed, "
        + plural(errors, "error");
  }

  private static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private static String indent(String text, String prefix) {
    return prefix + text.replace("\n", "\n" + prefix);
  }

  /** Whether the text under a mismatch is a diff (rather than the answer shown whole). */
  private static boolean isDiff(String text) {
    return text.lines().anyMatch(line -> line.startsWith("- ") || line.startsWith("+ "));
  }
}
