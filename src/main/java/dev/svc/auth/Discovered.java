package dev.svc.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A value an authorization server is asked for once (where its keys are, where it introspects
 * tokens), kept once found. A failure is remembered for the refresh interval: until it passes, the
 * same failure is answered without asking again, so an issuer that is down is asked at most once
 * per interval however many requests arrive.
 */
final class Discovered<T> {
  /** How the value is found; its failure's message says why, for the caller and the log. */
  @FunctionalInterface
  interface Discovery<T> {
    T find() throws Exception;
  }

  /** Why the value is not known (yet): the discovery's failure, or its remembered message. */
  static final class NotDiscoveredException extends Exception {
    NotDiscoveredException(String message, Throwable cause) {
      super(message, cause, false, false);
    }
  }

  private final Discovery<T> discovery;
  private final Duration retryAfter;
  private final Clock clock;
  private volatile T value;
  private Instant lastFailure;
  private String lastFailureReason = "";

  /**
   * @param known the value when it was given rather than discovered (null: discover it)
   */
  Discovered(T known, Discovery<T> discovery, Duration retryAfter, Clock clock) {
    this.value = known;
    this.discovery = discovery;
    this.retryAfter = retryAfter;
    this.clock = clock;
  }

  /** The value, found now if it is not known and the last failure is older than the interval. */
  T get() throws NotDiscoveredException {
    T known = value;
    if (known != null) {
      return known;
    }
    synchronized (this) {
      if (value != null) {
        return value;
      }
      Instant now = clock.instant();
      if (lastFailure != null && now.isBefore(lastFailure.plus(retryAfter))) {
        throw new NotDiscoveredException(lastFailureReason, null);
      }
      try {
        value = discovery.find();
        return value;
      } catch (Exception e) {
        lastFailure = now;
        lastFailureReason = String.valueOf(e.getMessage());
        throw new NotDiscoveredException(lastFailureReason, e);
      }
    }
  }
}
