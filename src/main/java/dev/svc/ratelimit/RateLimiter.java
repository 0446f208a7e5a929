package dev.svc.ratelimit;

import dev.svc.model.RateLimit;

/**
 * Counts calls against limits. One call of {@link #acquire} is one call of the tool: it is counted
 * when allowed, and a refused call is not counted. Implementations are safe for concurrent use and
 * never let more than {@code limit.requests()} calls through in one window of one key.
 *
 * <p>{@link InMemoryRateLimiter} counts per instance, so N instances behind a load balancer let up
 * to N times the limit through; {@link RedisRateLimiter} ({@code tools.rate_limit.store}) counts in
 * a Redis database every instance shares.
 */
public interface RateLimiter extends AutoCloseable {
  /**
   * Takes one call of {@code key} (tool and principal) under {@code limit}.
   *
   * @return whether the call may run, with what the {@code RateLimit} headers say
   */
  RateLimitDecision acquire(String key, RateLimit limit);

  /** Releases what the limiter holds (connections); calls after it are not counted. */
  @Override
  default void close() {}
}
