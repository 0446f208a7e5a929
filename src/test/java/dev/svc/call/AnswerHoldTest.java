package dev.svc.call;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AnswerHoldTest {
  @Test
  void withoutAnAnswerBeingMadeTheCallerReleasesItself() {
    assertThat(AnswerHold.defer(() -> {})).isFalse();
  }

  @Test
  void aReservationMadeWhileAnAnswerIsMadeIsReleasedOnceItIsWritten() {
    AnswerHold hold = new AnswerHold();
    AtomicInteger released = new AtomicInteger();
    boolean deferred =
        ScopedValue.where(AnswerHold.CURRENT, hold)
            .call(() -> AnswerHold.defer(released::incrementAndGet));
    assertThat(deferred).isTrue();
    assertThat(released).hasValue(0);

    hold.written();
    hold.written(); // a write that failed after succeeding parts: once is enough
    assertThat(released).hasValue(1);

    // one made after the answer is gone is the caller's to release
    assertThat(
            ScopedValue.where(AnswerHold.CURRENT, hold)
                .call(() -> AnswerHold.defer(released::incrementAndGet)))
        .isFalse();
  }
}
