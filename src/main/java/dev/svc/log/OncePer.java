package dev.svc.log;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets a log line that a flood would repeat (refused connections, dropped notifications) through at
 * most once per interval, whichever thread asks; the first time at once.
 */
public final class OncePer {
  private final long intervalNanos;
  private final AtomicLong last;

  public OncePer(Duration interval) {
    this.intervalNanos = interval.toNanos();
    this.last = new AtomicLong(System.nanoTime() - intervalNanos);
  }

  /** True when the interval has passed since the last time this said true: say it now. */
  public boolean due() {
    long before = last.get();
    long now = System.nanoTime();
    return now - before >= intervalNanos && last.compareAndSet(before, now);
  }
}
