package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.runtime.AdapterFailureLog.Entry;
import dev.svc.runtime.AdapterFailureLog.ErrorCount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What the adapter-failure log writes, on a clock the test moves: no waiting, no threads. */
class AdapterFailureLogTest {
  private static final ConnectorUnavailableException REFUSED =
      new ConnectorUnavailableException(
          "cannot connect to redis adapter `cache` at 127.0.0.1:6390: connection refused");
  private static final ConnectorUnavailableException LOST =
      new ConnectorUnavailableException(
          "lost the connection to redis adapter `cache` at 127.0.0.1:6390: connection reset");

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final List<Entry> written = Collections.synchronizedList(new ArrayList<>());
  private final AdapterFailureLog log = new AdapterFailureLog(now::get, written::add, task -> {});

  private void advance(Duration duration) {
    now.addAndGet(duration.toNanos());
  }

  private void fail(String adapter, ConnectorUnavailableException error, int times) {
    for (int i = 0; i < times; i++) {
      log.failed(adapter, "get_value", error);
    }
  }

  @Test
  void theFirstFailureIsWrittenInFullAndTheRestOnlyCounted() {
    fail("cache", REFUSED, 1000);
    assertThat(written).singleElement().isInstanceOf(Entry.FirstFailure.class);
    Entry.FirstFailure first = (Entry.FirstFailure) written.getFirst();
    assertThat(first.error()).isSameAs(REFUSED);
    assertThat(first.tool()).isEqualTo("get_value");
    assertThat(first.message())
        .isEqualTo(
            "adapter cache: a call failed; further failures are summarised every 5 s until a call"
                + " succeeds");
  }

  @Test
  void aSummaryIsWrittenWhenTheWindowEndsEvenWithoutAFurtherCall() {
    fail("cache", REFUSED, 53_586);
    advance(Duration.ofMillis(4_900));
    assertThat(log.flushDue()).isEqualTo(Duration.ofMillis(100).toNanos());
    assertThat(written).hasSize(1);
    advance(Duration.ofMillis(100));
    assertThat(log.flushDue()).isEqualTo(-1);
    assertThat(written).hasSize(2);
    Entry.Summary summary = (Entry.Summary) written.get(1);
    assertThat(summary.failed()).isEqualTo(53_586);
    assertThat(summary.failing()).isTrue();
    assertThat(summary.message())
        .isEqualTo(
            "adapter cache: 53,586 calls failed in the last 5.0 s: cannot connect to redis adapter"
                + " `cache` at 127.0.0.1:6390: connection refused");
  }

  @Test
  void aLongOutageWritesOneSummaryPerWindowAndOneRecoveryLineCountingEveryFailure() {
    for (int second = 0; second < 12; second++) {
      fail("cache", REFUSED, 100);
      advance(Duration.ofSeconds(1));
      log.flushDue();
    }
    fail("cache", REFUSED, 50);
    advance(Duration.ofMillis(300));
    log.succeeded("cache");
    log.succeeded("cache");
    advance(Duration.ofSeconds(10));
    log.flushDue();

    assertThat(written)
        .map(Entry::getClass)
        .map(Class::getSimpleName)
        .containsExactly("FirstFailure", "Summary", "Summary", "Recovered");
    assertThat(((Entry.Summary) written.get(1)).failed()).isEqualTo(500);
    assertThat(((Entry.Summary) written.get(2)).failed()).isEqualTo(500);
    Entry.Recovered recovered = (Entry.Recovered) written.get(3);
    assertThat(recovered.failed()).isEqualTo(1250);
    assertThat(recovered.after()).isEqualTo(Duration.ofMillis(12_300));
    assertThat(recovered.message())
        .isEqualTo("adapter cache: recovered after 12.3 s, 1,250 calls failed");
  }

  @Test
  void aShortOutageIsOneFailureLineAndOneRecoveryLine() {
    fail("cache", REFUSED, 53_590);
    advance(Duration.ofMillis(3_200));
    log.succeeded("cache");
    advance(Duration.ofSeconds(30));
    assertThat(log.flushDue()).isEqualTo(-1);
    assertThat(written)
        .map(Entry::message)
        .containsExactly(
            "adapter cache: a call failed; further failures are summarised every 5 s until a call"
                + " succeeds",
            "adapter cache: recovered after 3.2 s, 53,590 calls failed");
  }

  @Test
  void successesOfAHealthyAdapterWriteNothing() {
    log.succeeded("cache");
    log.succeeded("never-failed");
    advance(Duration.ofMinutes(1));
    assertThat(log.flushDue()).isEqualTo(-1);
    assertThat(written).isEmpty();
  }

  @Test
  void differentErrorsOfOneAdapterAreCountedApartTheMostFrequentFirst() {
    fail("cache", LOST, 3);
    fail("cache", REFUSED, 1197);
    advance(Duration.ofSeconds(5));
    log.flushDue();
    Entry.Summary summary = (Entry.Summary) written.get(1);
    assertThat(summary.errors())
        .containsExactly(
            new ErrorCount(REFUSED.getMessage(), 1197), new ErrorCount(LOST.getMessage(), 3));
    assertThat(summary.message())
        .isEqualTo(
            "adapter cache: 1,200 calls failed in the last 5.0 s: "
                + REFUSED.getMessage()
                + " (1,197 calls); "
                + LOST.getMessage()
                + " (3 calls)");
  }

  @Test
  void distinctErrorsAreBoundedAndTheRestCountAsOther() {
    for (int i = 0; i < 100; i++) {
      log.failed("cache", "get_value", new ConnectorUnavailableException("error number " + i));
    }
    advance(Duration.ofSeconds(5));
    log.flushDue();
    Entry.Summary summary = (Entry.Summary) written.get(1);
    assertThat(summary.failed()).isEqualTo(100);
    assertThat(summary.errors()).hasSize(AdapterFailureLog.MAX_ERRORS);
    assertThat(summary.message())
        .endsWith(
            "error number 0 (1 call); error number 1 (1 call); error number 2 (1 call); 97"
                + " calls with other errors");
  }

  @Test
  void adaptersFailingTogetherAreLoggedEachOnItsOwn() {
    fail("cache", REFUSED, 10);
    fail("db", new ConnectorUnavailableException("pool exhausted"), 20);
    advance(Duration.ofSeconds(5));
    log.flushDue();
    log.succeeded("db");
    assertThat(written)
        .map(e -> e.getClass().getSimpleName() + " " + e.adapter())
        .containsExactlyInAnyOrder(
            "FirstFailure cache", "FirstFailure db", "Summary cache", "Summary db", "Recovered db");
    assertThat(written)
        .filteredOn(e -> e instanceof Entry.Summary)
        .map(e -> ((Entry.Summary) e).failed())
        .containsExactlyInAnyOrder(10L, 20L);
  }

  @Test
  void aFlappingAdapterWritesAtMostOneFailureAndOneRecoveryLinePerWindow() {
    for (int i = 0; i < 1000; i++) {
      log.failed("cache", "get_value", REFUSED);
      log.succeeded("cache");
      advance(Duration.ofMillis(1));
    }
    // one second in: the first outage and its recovery in full, the rest counted
    assertThat(written)
        .map(e -> e.getClass().getSimpleName())
        .containsExactly("FirstFailure", "Recovered");
    advance(Duration.ofMillis(4_001)); // the window opened by the second failure ends
    log.flushDue();
    assertThat(written).hasSize(3);
    Entry.Summary summary = (Entry.Summary) written.get(2);
    assertThat(summary.failed()).isEqualTo(999);
    assertThat(summary.failing()).isFalse();
    assertThat(summary.message())
        .startsWith("adapter cache: 999 calls failed in the last 5.0 s (it answers again): ");
  }

  @Test
  void anOutageThatStartsQuietlyWhileFlappingStillEndsWithARecoveryLine() {
    log.failed("cache", "get_value", REFUSED);
    log.succeeded("cache");
    advance(Duration.ofSeconds(1));
    fail("cache", REFUSED, 400); // within the window of the last lines: no full line
    assertThat(written).hasSize(2);
    advance(Duration.ofSeconds(5));
    log.flushDue();
    log.succeeded("cache");
    assertThat(written)
        .map(Entry::message)
        .containsExactly(
            "adapter cache: a call failed; further failures are summarised every 5 s until a call"
                + " succeeds",
            "adapter cache: recovered after 0.0 s, 1 call failed",
            "adapter cache: 400 calls failed in the last 5.0 s: " + REFUSED.getMessage(),
            "adapter cache: recovered after 5.0 s, 400 calls failed");
  }

  @Test
  void callsFailingJustAfterTheRecoveryAreSummarisedNotWrittenInFull() {
    fail("cache", REFUSED, 100);
    advance(Duration.ofSeconds(6));
    log.flushDue();
    log.succeeded("cache");
    fail("cache", REFUSED, 2); // calls that were still waiting on the dead server
    advance(Duration.ofSeconds(5));
    log.flushDue();
    assertThat(written)
        .map(e -> e.getClass().getSimpleName())
        .containsExactly("FirstFailure", "Summary", "Recovered", "Summary");
    assertThat(((Entry.Summary) written.get(3)).failed()).isEqualTo(2);
  }

  @Test
  void aNewOutageAfterAQuietWindowIsWrittenInFullAgain() {
    fail("cache", REFUSED, 5);
    log.succeeded("cache");
    advance(Duration.ofMinutes(1));
    fail("cache", LOST, 5);
    assertThat(written)
        .map(e -> e.getClass().getSimpleName())
        .containsExactly("FirstFailure", "Recovered", "FirstFailure");
    assertThat(((Entry.FirstFailure) written.get(2)).error()).isSameAs(LOST);
  }

  @Test
  void concurrentFailuresAreAllCountedAndOnlyOneIsWrittenInFull() throws Exception {
    int threads = 8;
    int each = 20_000;
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      started.add(Thread.ofPlatform().start(() -> fail("cache", REFUSED, each)));
    }
    for (Thread thread : started) {
      thread.join();
    }
    advance(Duration.ofSeconds(5));
    log.flushDue();
    assertThat(written)
        .map(e -> e.getClass().getSimpleName())
        .containsExactly("FirstFailure", "Summary");
    assertThat(((Entry.Summary) written.get(1)).failed()).isEqualTo((long) threads * each);
  }

  @Test
  void theSummaryWriterIsStartedOncePerBusyStretch() {
    List<Runnable> tickers = new ArrayList<>();
    AdapterFailureLog counted = new AdapterFailureLog(now::get, written::add, tickers::add);
    for (int i = 0; i < 100; i++) {
      counted.failed("cache", "get_value", REFUSED);
    }
    assertThat(tickers).hasSize(1);
  }
}
