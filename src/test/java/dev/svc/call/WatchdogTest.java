package dev.svc.call;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WatchdogTest {
  private final Watchdog watchdog =
      new Watchdog("test-watchdog", Duration.ofMillis(5), Runnable::run);

  @Test
  void anActionRunsOnceItsDeadlinePasses() throws Exception {
    CountDownLatch ran = new CountDownLatch(1);
    Watchdog.Armed armed =
        watchdog.arm(
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20),
            Optional.empty(),
            ran::countDown);
    assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(armed.fired()).isTrue();
  }

  @Test
  void aClosedDeadlineNeverFires() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    Watchdog.Armed armed =
        watchdog.arm(
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20),
            Optional.empty(),
            runs::incrementAndGet);
    armed.close();
    Thread.sleep(100);
    assertThat(runs).hasValue(0);
    assertThat(armed.fired()).isFalse();
  }

  @Test
  void anInterruptedCallerFiresBeforeTheDeadline() throws Exception {
    CountDownLatch ran = new CountDownLatch(1);
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    Thread caller =
        Thread.ofPlatform()
            .start(() -> {
              while (!stop.get()) {
                Thread.onSpinWait(); // never clears its interrupt flag
              }
            });
    watchdog.arm(
        System.nanoTime() + TimeUnit.HOURS.toNanos(1), Optional.of(caller), ran::countDown);
    caller.interrupt();
    try {
      assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
    } finally {
      stop.set(true);
      caller.join();
    }
  }

  @Test
  void itWakesFromSleepWhenSomethingIsArmedAgain() throws Exception {
    Thread.sleep(1_200); // nothing armed for more than a second: the watchdog sleeps
    CountDownLatch ran = new CountDownLatch(1);
    watchdog.arm(System.nanoTime(), Optional.empty(), ran::countDown);
    assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
  }
}
