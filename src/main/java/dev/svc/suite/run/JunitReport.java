package dev.svc.suite.run;

import dev.svc.suite.Mismatch;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A run as JUnit XML, the format CI systems read (the de-facto schema of Ant's JUnit task: {@code
 * testsuites} of {@code testsuite}s of {@code testcase}s, each with at most one {@code failure} or
 * {@code error}). A suite that could not run holds one case, {@code (suite setup)}, with its error.
 */
public final class JunitReport {
  private JunitReport() {}

  public static String of(String name, List<SuiteResult> suites) {
    long tests = 0;
    long failures = 0;
    long errors = 0;
    Duration time = Duration.ZERO;
    for (SuiteResult suite : suites) {
      tests += cases(suite);
      failures += suite.failed();
      errors += suite.errored();
      time = time.plus(suite.time());
    }
    StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.append("<testsuites name=\"")
        .append(attribute(name))
        .append("\" tests=\"")
        .append(tests)
        .append("\" failures=\"")
        .append(failures)
        .append("\" errors=\"")
        .append(errors)
        .append("\" time=\"")
        .append(seconds(time))
        .append("\">\n");
    for (SuiteResult suite : suites) {
      suite(out, suite);
    }
    return out.append("</testsuites>\n").toString();
  }

  private static long cases(SuiteResult suite) {
    return suite.cases().size() + (suite.setupError().isPresent() ? 1 : 0);
  }

  private static void suite(StringBuilder out, SuiteResult suite) {
    out.append("  <testsuite name=\"")
        .append(attribute(suite.name()))
        .append("\" file=\"")
        .append(attribute(suite.file()))
        .append("\" tests=\"")
        .append(cases(suite))
        .append("\" failures=\"")
        .append(suite.failed())
        .append("\" errors=\"")
        .append(suite.errored())
        .append("\" skipped=\"0\" time=\"")
        .append(seconds(suite.time()))
        .append("\">\n");
    suite
        .setupError()
        .ifPresent(error -> {
          out.append("    <testcase name=\"(suite setup)\" classname=\"")
              .append(attribute(suite.name()))
              .append("\" file=\"")
              .append(attribute(suite.file()))
              .append("\" time=\"0.000\">\n");
          out.append("      <error message=\"")
              .append(attribute(firstLine(error)))
              .append("\">")
              .append(text(error))
              .append("</error>\n");
          out.append("    </testcase>\n");
        });
    for (CaseResult result : suite.cases()) {
      out.append("    <testcase name=\"")
          .append(attribute(result.name()))
          .append("\" classname=\"")
          .append(attribute(suite.name()))
          .append("\" file=\"")
          .append(attribute(result.origin().file()))
          .append("\" line=\"")
          .append(result.origin().line())
          .append("\" time=\"")
          .append(seconds(result.time()))
          .append('"');
      if (result.passed()) {
        out.append("/>\n");
        continue;
      }
      out.append(">\n");
      if (result.error().isPresent()) {
        out.append("      <error message=\"")
            .append(attribute(firstLine(result.error().get())))
            .append("\">")
            .append(text(result.error().get()))
            .append("</error>\n");
      } else {
        List<Mismatch> mismatches = result.mismatches();
        StringBuilder details = new StringBuilder();
        for (Mismatch mismatch : mismatches) {
          details
              .append(mismatch.expectation())
              .append(": ")
              .append(mismatch.message())
              .append('\n');
          if (!mismatch.diff().isEmpty()) {
            details.append(mismatch.diff().stripTrailing()).append('\n');
          }
        }
        result.answer().ifPresent(a -> details.append("answer:\n").append(a).append('\n'));
        Mismatch first = mismatches.getFirst();
        out.append("      <failure message=\"")
            .append(attribute(first.expectation() + ": " + first.message()))
            .append("\" type=\"expectation\">")
            .append(text(details.toString()))
            .append("</failure>\n");
      }
      out.append("    </testcase>\n");
    }
    out.append("  </testsuite>\n");
  }

  private static String firstLine(String text) {
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  private static String seconds(Duration time) {
    return String.format(Locale.ROOT, "%.3f", time.toNanos() / 1e9);
  }

  static String attribute(String value) {
    return escape(value, true);
  }

  static String text(String value) {
    return escape(value, false);
  }

  /** XML 1.0 escaping; characters XML cannot hold at all become U+FFFD. */
  private static String escape(String value, boolean attribute) {
    StringBuilder out = new StringBuilder(value.length() + 16);
    value
        .codePoints()
        .forEach(c -> {
          switch (c) {
            case '&' -> out.append("&amp;");
            case '<' -> out.append("&lt;");
            case '>' -> out.append("&gt;");
            case '"' -> out.append(attribute ? "&quot;" : "\"");
            case '\n' -> out.append(attribute ? "&#10;" : "\n");
            case '\r' -> out.append("&#13;");
            case '\t' -> out.append(attribute ? "&#9;" : "\t");
            default -> {
              boolean allowed =
                  c >= 0x20 && c <= 0xD7FF
                      || c >= 0xE000 && c <= 0xFFFD
                      || c >= 0x10000 && c <= 0x10FFFF;
              out.appendCodePoint(allowed ? c : 0xFFFD);
            }
          }
        });
    return out.toString();
  }
}
