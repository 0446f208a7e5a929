package dev.svc.model;

import java.time.Duration;

/** Whether a tool's results are cached, and for how long. */
public record CachePolicy(boolean enabled, Duration ttl) {
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(120);
  public static final CachePolicy OFF = new CachePolicy(false, DEFAULT_TTL);
}
