package dev.svc.ratelimit;

import dev.svc.model.RateLimit;
import java.time.Duration;
import java.util.Map;

/**
 * The answer of a {@link RateLimiter} to one call.
 *
 * @param allowed whether the call may run
 * @param limit the limit it was counted against
 * @param remaining calls still allowed in the current window after this one
 * @param resetAfter how long until the window ends (and a refused call may be retried)
 */
public record RateLimitDecision(
    boolean allowed, RateLimit limit, long remaining, Duration resetAfter) {
  public RateLimitDecision {
    if (remaining < 0 || resetAfter.isNegative()) {
      throw new IllegalArgumentException("remaining and resetAfter must not be negative");
    }
  }

  /** {@code resetAfter} in whole seconds, rounded up and at least 1: {@code Retry-After}. */
  public long retryAfterSeconds() {
    return Math.max(1, ceilSeconds(resetAfter));
  }

  /**
   * The IETF {@code RateLimit-Policy}, {@code RateLimit} and, when refused, {@code Retry-After}
   * header fields (draft-ietf-httpapi-ratelimit-headers), the policy named {@code policy}: {@code
   * "search";q=60;w=60} and {@code "search";r=59;t=42}.
   *
   * @param policy the policy's name, a tool name (letters, digits, {@code _ - .}: nothing to escape
   *     in a quoted string)
   */
  public Map<String, String> headers(String policy) {
    String name = "\"" + policy + "\"";
    long window = Math.max(1, ceilSeconds(limit.per()));
    String policyField = name + ";q=" + limit.requests() + ";w=" + window;
    String rateLimitField = name + ";r=" + remaining + ";t=" + ceilSeconds(resetAfter);
    return allowed
        ? Map.of("RateLimit-Policy", policyField, "RateLimit", rateLimitField)
        : Map.of(
            "RateLimit-Policy",
            policyField,
            "RateLimit",
            rateLimitField,
            "Retry-After",
            Long.toString(retryAfterSeconds()));
  }

  private static long ceilSeconds(Duration d) {
    long seconds = d.getSeconds();
    return d.getNano() > 0 ? seconds + 1 : seconds;
  }
}
