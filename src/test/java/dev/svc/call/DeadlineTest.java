package dev.svc.call;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DeadlineTest {
  @Test
  void aDeadlineKeepsTheTimeItWasGivenAndCountsDownFromIt() {
    long before = System.nanoTime();
    Deadline deadline = Deadline.after(Duration.ofSeconds(30));
    assertThat(deadline.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(deadline.nanos() - before).isGreaterThanOrEqualTo(Duration.ofSeconds(30).toNanos());
    assertThat(deadline.remainingNanos())
        .isPositive()
        .isLessThanOrEqualTo(Duration.ofSeconds(30).toNanos());
    assertThat(deadline.passed()).isFalse();
  }

  @Test
  void aPassedDeadlineHasNothingLeftButStillGivesAMillisecondAsADuration() {
    Deadline passed = new Deadline(System.nanoTime() - 1_000, Duration.ofMillis(5));
    assertThat(passed.passed()).isTrue();
    assertThat(passed.remainingNanos()).isNegative();
    assertThat(passed.remaining()).isEqualTo(Duration.ofMillis(1));
  }
}
