package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StoreOutageTest {
  final AtomicLong now = new AtomicLong(1_000);
  final StoreOutage outage = new StoreOutage(now::get);

  @Test
  void aFailurePausesTheTriesAndOneSuccessEndsThePause() {
    assertThat(outage.tryNow()).isTrue();

    assertThat(outage.failed()).isEqualTo(Duration.ofSeconds(1));
    assertThat(outage.tryNow()).isFalse();
    advance(Duration.ofMillis(999));
    assertThat(outage.tryNow()).isFalse();
    advance(Duration.ofMillis(1));
    assertThat(outage.tryNow()).as("the try after the pause").isTrue();

    outage.succeeded();
    assertThat(outage.tryNow()).isTrue();
    assertThat(outage.failed())
        .as("a new outage starts short again")
        .isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void failuresInARowDoubleThePauseUpToThirtySeconds() {
    assertThat(outage.failed()).isEqualTo(Duration.ofSeconds(1));
    assertThat(outage.failed()).isEqualTo(Duration.ofSeconds(2));
    assertThat(outage.failed()).isEqualTo(Duration.ofSeconds(4));
    assertThat(outage.failed()).isEqualTo(Duration.ofSeconds(8));
    assertThat(outage.failed()).isEqualTo(Duration.ofSeconds(16));
    assertThat(outage.failed()).isEqualTo(Duration.ofSeconds(30));
    assertThat(outage.failed()).isEqualTo(Duration.ofSeconds(30));
    advance(Duration.ofSeconds(29));
    assertThat(outage.tryNow()).isFalse();
  }

  private void advance(Duration by) {
    now.addAndGet(by.toNanos());
  }
}
