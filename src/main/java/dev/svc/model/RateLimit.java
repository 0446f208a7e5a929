package dev.svc.model;

import java.time.Duration;

/**
 * How often one principal may call one tool ({@code rate_limit}): global under {@code tools} in the
 * root file, per tool in its {@code config.terse}. See docs/configuration.md.
 *
 * @param requests the most calls in one window, at least 1
 * @param per the window's length, at least one millisecond
 */
public record RateLimit(long requests, Duration per) {
  /** The window when {@code per} is not written: one minute. */
  public static final Duration DEFAULT_PER = Duration.ofMinutes(1);

  public RateLimit {
    if (requests < 1) {
      throw new IllegalArgumentException("a rate limit allows at least one request");
    }
    if (per.compareTo(Duration.ofMillis(1)) < 0) {
      throw new IllegalArgumentException("a rate limit's window is at least 1 ms");
    }
  }
}
