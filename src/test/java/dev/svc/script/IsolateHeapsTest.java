package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** How isolates' measurements add up to the script memory gauge. */
class IsolateHeapsTest {
  private final AtomicLong total = new AtomicLong();

  @Test
  void eachIsolateCountsItsLatestMeasurementOnce() {
    IsolateHeaps first = new IsolateHeaps(total);
    IsolateHeaps second = new IsolateHeaps(total);

    first.measured(3_000_000);
    second.measured(5_000_000);
    first.measured(4_000_000);

    assertThat(total.get()).isEqualTo(9_000_000);
  }

  @Test
  void aClosedIsolateLeavesTheSum_evenWhenAMeasurementArrivesAfterwards() {
    IsolateHeaps isolate = new IsolateHeaps(total);
    isolate.measured(3_000_000);

    isolate.close();
    isolate.measured(7_000_000); // V8 answered after the isolate closed

    assertThat(total.get()).isZero();
  }

  @Test
  void anIsolateMeasuresItselfAtMostOnceASecond() {
    IsolateHeaps isolate = new IsolateHeaps(total);
    long now = System.nanoTime();

    assertThat(isolate.due(now)).as("the first time").isTrue();
    assertThat(isolate.due(now + IsolateHeaps.SAMPLE_INTERVAL_NANOS / 2)).isFalse();
    assertThat(isolate.due(now + IsolateHeaps.SAMPLE_INTERVAL_NANOS)).isTrue();
  }
}
