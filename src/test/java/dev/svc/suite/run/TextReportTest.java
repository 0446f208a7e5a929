package dev.svc.suite.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.diagnostic.Origin;
import dev.svc.suite.Mismatch;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The readable report never hands a terminal or a CI log the control characters it quotes. */
class TextReportTest {
  @Test
  void controlCharactersOfNamesErrorsAndTextsAreWrittenVisibly() {
    CaseResult hostile =
        new CaseResult(
            "red \u001b[31mname\u0000",
            new Origin("app/tools/t/tests.terse", 3, 3),
            Optional.empty(),
            List.of(
                new Mismatch(
                    "text_matches",
                    "the text does not match /ok/",
                    "- ok\n+ \rPASS  tool t\u001b[2K \u202Eevil\tend\n")),
            Optional.empty(),
            Duration.ZERO);
    SuiteResult suite =
        new SuiteResult(
            "tool t", "app/tools/t/tests.terse", List.of(hostile), Optional.empty(), Duration.ZERO);

    assertThat(TextReport.suite(suite))
        .isEqualTo(
            """
            FAIL  tool t  app/tools/t/tests.terse  (1 of 1 case failed)
              FAIL  red \\u001b[31mname\\u0000  app/tools/t/tests.terse:3:3
                text_matches: the text does not match /ok/  (- expected, + actual)
                  - ok
                  + \\u000dPASS  tool t\\u001b[2K \\u202eevil\tend
            """);
  }
}
