package dev.svc.diagnostic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DiagnosticTest {
  private static final Origin AT = new Origin("app/tools/t/config.terse", 3, 7);

  @Test
  void rendersFileLineColumnSeverityCodeAndMessage() {
    assertThat(Diagnostic.error("unknown-adapter", AT, "no adapter is named `db`").render())
        .isEqualTo(
            "app/tools/t/config.terse:3:7: error[unknown-adapter]: no adapter is named `db`");
  }

  @Test
  void rendersTheHintOnAnIndentedSecondLine() {
    assertThat(
            Diagnostic.warning("unknown-key", AT, "unknown key `x`").withHint("remove it").render())
        .isEqualTo(
            "app/tools/t/config.terse:3:7: warning[unknown-key]: unknown key `x`\n  hint: remove it");
  }

  @Test
  void aWholeFileOriginRendersAsThePathAlone() {
    assertThat(
            Diagnostic.warning("missing-config", Origin.ofFile("app/tools/draft"), "no config")
                .render())
        .isEqualTo("app/tools/draft: warning[missing-config]: no config");
  }

  @Test
  void controlCharactersOfNamesAreEscapedSoThatADiagnosticStaysOneLine() {
    Origin folder = new Origin("app/tools/bad\nname/config.terse", 1, 1);

    assertThat(
            Diagnostic.error("invalid-name", folder, "default name `bad\nname\u0001` is invalid")
                .withHint("rename `bad\nname`")
                .render())
        .isEqualTo(
            "app/tools/bad\\nname/config.terse:1:1: error[invalid-name]: default name"
                + " `bad\\nname\\u0001` is invalid\n  hint: rename `bad\\nname`");
  }

  @Test
  void aValueOfAHundredThousandCharactersIsQuotedByItsBeginningAndItsLength() {
    // before: the whole value, a diagnostic line of 100 KB (found by ProjectFuzzTest)
    String path = "x".repeat(100_000);
    Diagnostic missing =
        Diagnostic.error("missing-file", AT, "the seed script `" + path + "` does not exist")
            .withHint("write `" + path + "` or fix the path");

    assertThat(missing.message())
        .isEqualTo("the seed script `" + "x".repeat(200) + "… (100000 characters)` does not exist");
    assertThat(missing.hint())
        .contains("write `" + "x".repeat(200) + "… (100000 characters)` or fix the path");
    assertThat(Diagnostic.error("yaml-syntax", AT, "y".repeat(50_000)).message())
        .hasSize(2_000 + "… (50000 characters)".length());
    String ordinary = "unknown adapter `" + "a".repeat(500) + "`";
    assertThat(Diagnostic.error("unknown-adapter", AT, ordinary).message()).isEqualTo(ordinary);
  }

  @Test
  void codesMustBeKebabCase() {
    assertThatThrownBy(() -> Diagnostic.error("UnknownAdapter", AT, "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Diagnostic.error("unknown_adapter", AT, "x"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void sortsByFileThenLineThenColumnThenErrorsBeforeWarnings() {
    Diagnostic a = Diagnostic.error("b", new Origin("b.terse", 1, 1), "m");
    Diagnostic b = Diagnostic.warning("a", new Origin("a.terse", 2, 1), "m");
    Diagnostic c = Diagnostic.error("a", new Origin("a.terse", 2, 1), "m");
    Diagnostic d = Diagnostic.error("a", new Origin("a.terse", 1, 9), "m");
    Diagnostics diagnostics = new Diagnostics();
    List.of(a, b, c, d).forEach(diagnostics::add);

    assertThat(diagnostics.sorted()).containsExactly(d, c, b, a);
  }

  @Test
  void theSameProblemReportedTwiceIsListedOnce() {
    Diagnostics diagnostics = new Diagnostics();
    diagnostics.error("x", AT, "m");
    diagnostics.error("x", AT, "m");

    assertThat(diagnostics.sorted()).hasSize(1);
  }

  @Test
  void theSummaryCountsErrorsAndWarningsWithPlurals() {
    Diagnostic error = Diagnostic.error("e", AT, "m");
    Diagnostic warning = Diagnostic.warning("w", AT, "m");

    assertThat(Diagnostics.summary(List.of())).isEqualTo("0 errors, 0 warnings");
    assertThat(Diagnostics.summary(List.of(error, warning))).isEqualTo("1 error, 1 warning");
    assertThat(Diagnostics.summary(List.of(error, error, warning, warning, warning)))
        .isEqualTo("2 errors, 3 warnings");
  }

  @Test
  void suggestsTheClosestCandidateOnlyWhenItIsAPlausibleTypo() {
    List<String> keys = List.of("description", "use", "statement", "handler", "inputs");

    assertThat(Suggestions.didYouMean("descripton", keys)).contains("did you mean `description`?");
    assertThat(Suggestions.didYouMean("statment", keys)).contains("did you mean `statement`?");
    assertThat(Suggestions.didYouMean("colour", keys)).isEmpty();
  }
}
