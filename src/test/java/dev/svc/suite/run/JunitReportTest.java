package dev.svc.suite.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.diagnostic.Origin;
import dev.svc.suite.Mismatch;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The JUnit XML and the readable report of a run, from results made by hand. */
class JunitReportTest {
  static final CaseResult ESCAPED =
      new CaseResult(
          "quotes \"<&>\"",
          new Origin("app/tools/t/tests.terse", 3, 3),
          Optional.of("isError: bad \0 byte"),
          List.of(new Mismatch("error", "the error does not match /a&b/", "- a&b\n+ bad\n")),
          Optional.empty(),
          Duration.ofMillis(1500));
  static final SuiteResult FAILED =
      new SuiteResult(
          "tool t", "app/tools/t/tests.terse", List.of(ESCAPED), Optional.empty(), Duration.ZERO);
  static final SuiteResult UNREACHABLE =
      new SuiteResult(
          "tool u",
          "app/tools/u/tests.terse",
          List.of(),
          Optional.of("the runtime could not start:\nadapter `db` is unreachable"),
          Duration.ZERO);

  @Test
  void textAndAttributesAreEscapedAndASuiteThatDidNotRunHasOneErroredCase() {
    assertThat(JunitReport.of("svc & co", List.of(FAILED, UNREACHABLE)))
        .isEqualTo(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="svc &amp; co" tests="2" failures="1" errors="1" time="0.000">
              <testsuite name="tool t" file="app/tools/t/tests.terse" tests="1" failures="1" \
            errors="0" skipped="0" time="0.000">
                <testcase name="quotes &quot;&lt;&amp;&gt;&quot;" classname="tool t" \
            file="app/tools/t/tests.terse" line="3" time="1.500">
                  <failure message="error: the error does not match /a&amp;b/" \
            type="expectation">error: the error does not match /a&amp;b/
            - a&amp;b
            + bad
            answer:
            isError: bad \uFFFD byte
            </failure>
                </testcase>
              </testsuite>
              <testsuite name="tool u" file="app/tools/u/tests.terse" tests="1" failures="0" \
            errors="1" skipped="0" time="0.000">
                <testcase name="(suite setup)" classname="tool u" file="app/tools/u/tests.terse" \
            time="0.000">
                  <error message="the runtime could not start:">the runtime could not start:
            adapter `db` is unreachable</error>
                </testcase>
              </testsuite>
            </testsuites>
            """);
  }

  @Test
  void theReadableReportHasAProgressLinePerSuiteAndTheDetailsUnderIt() {
    assertThat(TextReport.suite(FAILED) + TextReport.suite(UNREACHABLE))
        .isEqualTo(
            """
            FAIL  tool t  app/tools/t/tests.terse  (1 of 1 case failed)
              FAIL  quotes "<&>"  app/tools/t/tests.terse:3:3
                error: the error does not match /a&b/  (- expected, + actual)
                  - a&b
                  + bad
            ERROR  tool u  app/tools/u/tests.terse  (did not run)
              the runtime could not start:
              adapter `db` is unreachable
            """);
    assertThat(TextReport.summary(List.of(FAILED, UNREACHABLE)))
        .isEqualTo("2 suites, 1 case: 0 passed, 1 failed, 1 error");
  }
}
