package dev.svc.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.svc.model.RateLimit;
import java.time.Duration;

/**
 * A fixed window per key, in memory: the first call of a key opens a window of {@code per}; the
 * calls in it are counted, and those past {@code requests} are refused until it ends. A window is
 * forgotten when it ends, and at most {@link #DEFAULT_MAX_KEYS} are kept (the least used go first),
 * so memory stays bounded however many principals call.
 *
 * <p>Each call updates its key atomically ({@code ConcurrentHashMap.compute}): calls of different
 * keys do not wait for each other, calls of one key never let more than {@code requests} through in
 * one window. A fixed window lets up to twice the limit through across a window's boundary; that is
 * the price of one counter per key.
 */
public final class InMemoryRateLimiter implements RateLimiter {
  /** How many windows (tool and principal pairs) are kept at most. */
  public static final long DEFAULT_MAX_KEYS = 100_000;

  private final Ticker ticker;
  private final Cache<String, Window> windows;

  public InMemoryRateLimiter() {
    this(Ticker.systemTicker(), DEFAULT_MAX_KEYS);
  }

  /**
   * @param ticker the clock in nanoseconds (tests move it by hand)
   * @param maxKeys how many windows are kept at most
   */
  public InMemoryRateLimiter(Ticker ticker, long maxKeys) {
    this.ticker = ticker;
    this.windows =
        Caffeine.newBuilder()
            .ticker(ticker)
            .maximumSize(maxKeys)
            .expireAfter(new UntilWindowEnds())
            .build();
  }

  @Override
  public RateLimitDecision acquire(String key, RateLimit limit) {
    long now = ticker.read();
    long per = limit.per().toNanos();
    long requests = limit.requests();
    Window window =
        windows
            .asMap()
            .compute(
                key,
                (k, old) -> {
                  if (old == null || now - old.end() >= 0) {
                    return new Window(now + per, 1);
                  }
                  // a refused call is not counted: the count stops one past the limit
                  return old.count() > requests ? old : new Window(old.end(), old.count() + 1);
                });
    boolean allowed = window.count() <= requests;
    long remaining = allowed ? requests - window.count() : 0;
    return new RateLimitDecision(
        allowed, limit, remaining, Duration.ofNanos(Math.max(0, window.end() - now)));
  }

  /** How many windows are kept now (after {@link #cleanUp}: exactly). */
  long size() {
    return windows.estimatedSize();
  }

  /** Runs pending expiry and eviction now. */
  void cleanUp() {
    windows.cleanUp();
  }

  /**
   * One key's window.
   *
   * @param end when it ends, on the ticker's clock
   * @param count calls counted in it (one more than the limit when calls were refused)
   */
  private record Window(long end, long count) {}

  private static final class UntilWindowEnds implements Expiry<String, Window> {
    @Override
    public long expireAfterCreate(String key, Window window, long currentTime) {
      return Math.max(0, window.end() - currentTime);
    }

    @Override
    public long expireAfterUpdate(
        String key, Window window, long currentTime, long currentDuration) {
      return Math.max(0, window.end() - currentTime);
    }

    @Override
    public long expireAfterRead(String key, Window window, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }
}
