package dev.svc.protocol.a2a;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Whether to give the shared task store a task's next stream event, after it failed to take one. A
 * store that stops answering without closing its connections (a frozen Redis, a network dropping
 * packets) fails each append only at its time-out (5 s for Redis), and the events of a streamed
 * answer come one per chunk, on the task's own thread: a hung store held every chunk of every
 * running task that long. After a failure, appends are skipped for a while (1 s, then twice as long
 * after each failure in a row, at most 30 s; the first append after that is the try), as events
 * that could not be shared are anyway (other instances' streams miss them; the task as saved is
 * whole). One success ends it.
 */
final class StoreOutage {
  static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
  static final Duration LONGEST_PAUSE = Duration.ofSeconds(30);

  private final LongSupplier nanos;
  private long pauseNanos;
  private long resumeAt;

  StoreOutage(LongSupplier nanos) {
    this.nanos = nanos;
  }

  /** Whether to try the store now: not while paused after a failure. */
  synchronized boolean tryNow() {
    return pauseNanos == 0 || nanos.getAsLong() - resumeAt >= 0;
  }

  /**
   * The store failed to take an event: events are skipped for the next pause.
   *
   * @return the pause that begins
   */
  synchronized Duration failed() {
    pauseNanos =
        pauseNanos == 0 ? FIRST_PAUSE.toNanos() : Math.min(pauseNanos * 2, LONGEST_PAUSE.toNanos());
    resumeAt = nanos.getAsLong() + pauseNanos;
    return Duration.ofNanos(pauseNanos);
  }

  /** The store took an event: no pause any more. */
  synchronized void succeeded() {
    pauseNanos = 0;
  }
}
