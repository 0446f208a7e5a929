package dev.svc.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A test's pattern that backtracks for ever on the answer is a mismatch saying so, instead of a
 * {@code svc test} that never ends. (The timeout only keeps a regression from hanging the build.)
 */
class BoundedFindTest {
  static final Pattern CATASTROPHIC = Pattern.compile("^(([a-z` ]|[a-z` :])+)+X");

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void anErrorPatternThatBacktracksForEverIsGivenUpAsAMismatch() {
    Mismatch mismatch =
        new Expectation.ErrorMatching(CATASTROPHIC)
            .check(Answer.failure("invalid arguments: `id` must be an integer"))
            .orElseThrow();

    assertThat(mismatch.expectation()).isEqualTo("error");
    assertThat(mismatch.message())
        .startsWith(
            "matching /^(([a-z` ]|[a-z` :])+)+X/ took more than 50 million steps and was given up");
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aTextPatternThatBacktracksForEverIsGivenUpAsAMismatch() {
    var expectation =
        new Expectation.TextMatching("answer_matches", JsonPath.parse("$.answer"), CATASTROPHIC);
    Answer answer =
        Answer.success(
            ExpectationTest.json("{\"answer\":\"there are seven bananas in the pantry today\"}"),
            false);

    assertThat(expectation.check(answer).orElseThrow().message()).contains("was given up");
  }

  @Test
  void patternsThatEndAreJudgedAsBefore() {
    assertThat(BoundedFind.find(Pattern.compile("must be"), "`id` must be an integer"))
        .contains(true);
    assertThat(BoundedFind.find(Pattern.compile("(?i)BANANA"), "no fruit")).contains(false);
    assertThat(BoundedFind.find(Pattern.compile("(?m)^g.*d$"), "brew\nground")).contains(true);
  }
}
