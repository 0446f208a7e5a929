package dev.svc.call;

import java.time.Duration;

/**
 * The time by which a call must be done: made once when the call starts, and handed to every stage
 * of it (auth plugin, transforms, the statement or handler), so that the stages together never run
 * past the call's timeout and nobody works the deadline out again from a duration. Kept as a {@link
 * System#nanoTime()} instant, which is what waits and the {@link Watchdog} compare against.
 *
 * @param nanos the {@link System#nanoTime()} at which the deadline passes
 * @param timeout the time the call was given when it started: what messages name ("the statement
 *     ran longer than 30 s"), whatever was left of it when the stage that timed out began
 */
public record Deadline(long nanos, Duration timeout) {
  /** The least {@link #remaining()} gives: APIs that take a duration read zero as "no limit". */
  private static final long AT_LEAST_NANOS = 1_000_000;

  /** A deadline {@code timeout} from now. */
  public static Deadline after(Duration timeout) {
    return new Deadline(System.nanoTime() + timeout.toNanos(), timeout);
  }

  /** The nanoseconds left; zero or less once the deadline passed. */
  public long remainingNanos() {
    return nanos - System.nanoTime();
  }

  /** Whether the deadline passed. */
  public boolean passed() {
    return remainingNanos() <= 0;
  }

  /**
   * The time left as a duration, for APIs that take one (socket and HTTP timeouts, a driver's
   * wait): at least a millisecond, since to those zero means no limit at all or is refused.
   */
  public Duration remaining() {
    return Duration.ofNanos(Math.max(AT_LEAST_NANOS, remainingNanos()));
  }
}
