package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.testing.ManualClock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A value asked of an authorization server once, with its failures remembered for a while. */
class DiscoveredTest {
  private static final Duration INTERVAL = Duration.ofSeconds(30);
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-26T06:00:00Z"));
  private final AtomicInteger asked = new AtomicInteger();

  @Test
  void aGivenValueIsNeverDiscovered() throws Exception {
    Discovered<String> given =
        new Discovered<>("https://given", () -> "found" + asked.incrementAndGet(), INTERVAL, clock);
    assertThat(given.get()).isEqualTo("https://given");
    assertThat(asked).hasValue(0);
  }

  @Test
  void aValueFoundOnceIsKept() throws Exception {
    Discovered<String> found =
        new Discovered<>(null, () -> "found" + asked.incrementAndGet(), INTERVAL, clock);
    assertThat(found.get()).isEqualTo("found1");
    assertThat(found.get()).isEqualTo("found1");
    assertThat(asked).hasValue(1);
  }

  @Test
  void aFailureIsAnsweredAgainWithoutAskingUntilTheIntervalHasPassed() throws Exception {
    Discovered<String> flaky =
        new Discovered<>(
            null,
            () -> {
              if (asked.incrementAndGet() == 1) {
                throw new IOException("the issuer answered HTTP 503");
              }
              return "found";
            },
            INTERVAL,
            clock);
    assertThatThrownBy(flaky::get)
        .isInstanceOf(Discovered.NotDiscoveredException.class)
        .hasMessage("the issuer answered HTTP 503")
        .hasCauseInstanceOf(IOException.class);
    clock.advance(INTERVAL.minusMillis(1));
    assertThatThrownBy(flaky::get).hasMessage("the issuer answered HTTP 503");
    assertThat(asked).as("not asked again within the interval").hasValue(1);
    clock.advance(Duration.ofMillis(1));
    assertThat(flaky.get()).isEqualTo("found");
    assertThat(asked).hasValue(2);
  }
}
