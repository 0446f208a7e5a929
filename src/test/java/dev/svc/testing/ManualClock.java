package dev.svc.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves by hand: it stands still until told otherwise. */
public final class ManualClock extends Clock {
  private volatile Instant now;

  public ManualClock(Instant start) {
    this.now = start;
  }

  /** Moves the clock forward. */
  public void advance(Duration by) {
    now = now.plus(by);
  }

  /** Sets the clock. */
  public void set(Instant instant) {
    now = instant;
  }

  @Override
  public ZoneOffset getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now;
  }
}
