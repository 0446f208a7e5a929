package dev.svc.ratelimit;

import dev.svc.connector.ResolvedAdapter;
import dev.svc.connector.StateConnections;
import dev.svc.log.Log;
import dev.svc.model.RateLimit;
import dev.svc.telemetry.SvcMetrics;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Rate limits counted in Redis ({@code tools.rate_limit.store}), shared by every instance that
 * names the same database: N instances behind a load balancer let the limit through once, not N
 * times.
 *
 * <p>The same fixed window as {@link InMemoryRateLimiter}: the first call of a key opens a window
 * of {@code per}, the calls in it are counted, those past {@code requests} are refused (and not
 * counted) until it ends. One call is one atomic round trip: a Lua script ({@code EVALSHA}, {@code
 * EVAL} when the server has not cached it) reads the count, {@code INCR}s it unless it is past the
 * limit, {@code PEXPIRE}s a key without a time to live (the window's first call), and answers the
 * count and the key's {@code PTTL}. The window is timed by Redis's clock alone, so instances whose
 * clocks differ still agree on it.
 *
 * <p>Keys are {@code svc:rl:<tool>:<SHA-256 of the principal key>}: neither a credential (those are
 * hashed in principal ids already) nor a token's subject or a client address appears in Redis.
 *
 * <p><b>When Redis does not answer</b> (down, unreachable, timing out, or the key holds something
 * else), the call is <em>allowed</em>: a limiter outage must not take the tools down with it. Each
 * call let through unchecked is counted in {@code svc_rate_limit_unchecked_total}, and a warning is
 * logged at most every {@link #WARNING_INTERVAL}. After Redis could not be reached the limiter does
 * not ask it for {@link #BACK_OFF}, so an outage costs the calls no time-outs past the first.
 */
public final class RedisRateLimiter implements RateLimiter {
  private static final Log LOG = Log.tagged("ratelimit");

  /** What every key starts with. */
  public static final String PREFIX = "svc:rl:";

  /** Connect and read time-out of one round trip: the limiter sits in front of every call. */
  static final Duration TIMEOUT = Duration.ofSeconds(1);

  /**
   * The most one reply of the limiter's Redis may take: its script answers two small numbers, so a
   * longer reply is a Redis gone wrong, and the check fails as when Redis is unreachable.
   */
  static final long MAX_REPLY_BYTES = 64 * 1024;

  /** How long calls pass unchecked after Redis failed, before it is asked again. */
  static final Duration BACK_OFF = Duration.ofSeconds(1);

  /** The least time between two warnings about Redis failing. */
  static final Duration WARNING_INTERVAL = Duration.ofSeconds(30);

  /**
   * KEYS[1]: the key; ARGV[1]: the window in ms; ARGV[2]: the limit. Answers {count, ms left}. A
   * key without a time to live is one {@code INCR} just created (or one written by something else):
   * either way its window starts now.
   */
  static final String SCRIPT =
      """
      local count = tonumber(redis.call('GET', KEYS[1]) or '0')
      if count == nil then
        return redis.error_reply('rate-limit key holds no count: ' .. KEYS[1])
      end
      if count <= tonumber(ARGV[2]) then
        count = redis.call('INCR', KEYS[1])
      end
      local ttl = redis.call('PTTL', KEYS[1])
      if ttl < 0 then
        redis.call('PEXPIRE', KEYS[1], ARGV[1])
        ttl = tonumber(ARGV[1])
      end
      return {count, ttl}
      """;

  private static final String SCRIPT_SHA = hex("SHA-1", SCRIPT);

  private final UnifiedJedis redis;
  private final String prefix;
  private final String description;
  private final LongSupplier nanoTime;
  private final AtomicLong askAgainAt;
  private final AtomicLong nextWarningAt;
  private final AtomicLong uncheckedSinceWarning = new AtomicLong();
  private volatile boolean unavailable;

  /**
   * Opens a pool on the adapter's database and checks it answers; when it does not, the limiter
   * still starts (letting calls through, with a warning) and asks again on the next call.
   */
  public RedisRateLimiter(ResolvedAdapter adapter) {
    this(adapter, PREFIX, System::nanoTime);
  }

  /**
   * @param prefix what every key starts with (tests give each their own)
   * @param nanoTime the clock of the back-off and of the warnings
   */
  RedisRateLimiter(ResolvedAdapter adapter, String prefix, LongSupplier nanoTime) {
    this.redis = StateConnections.redis(adapter, TIMEOUT, MAX_REPLY_BYTES);
    this.prefix = prefix;
    this.description =
        "the rate-limit store (redis adapter `"
            + adapter.name()
            + "` at "
            + StateConnections.redisLocation(adapter)
            + ")";
    this.nanoTime = nanoTime;
    long now = nanoTime.getAsLong();
    this.askAgainAt = new AtomicLong(now);
    this.nextWarningAt = new AtomicLong(now);
    try {
      redis.ping();
    } catch (RuntimeException e) {
      LOG.warn(
          "rate limits are not enforced until Redis answers: calls are let through",
          "store",
          description,
          "error",
          firstLine(e.getMessage()));
      nextWarningAt.set(now + WARNING_INTERVAL.toNanos());
      askAgainAt.set(now + BACK_OFF.toNanos());
      unavailable = true;
    }
  }

  @Override
  public RateLimitDecision acquire(String key, RateLimit limit) {
    long now = nanoTime.getAsLong();
    if (unavailable && now - askAgainAt.get() < 0) {
      return unchecked(limit, now, null);
    }
    List<String> args =
        List.of(Long.toString(limit.per().toMillis()), Long.toString(limit.requests()));
    List<String> keys = List.of(redisKey(key));
    Object reply;
    try {
      try {
        reply = redis.evalsha(SCRIPT_SHA, keys, args);
      } catch (JedisNoScriptException e) {
        reply = redis.eval(SCRIPT, keys, args); // caches it for the next EVALSHA
      }
    } catch (JedisDataException e) { // Redis answered with an error: asking again may succeed
      return unchecked(limit, now, e);
    } catch (RuntimeException e) { // unreachable, timed out, closed: the call must not fail
      askAgainAt.set(now + BACK_OFF.toNanos());
      unavailable = true;
      return unchecked(limit, now, e);
    }
    if (!(reply instanceof List<?> pair)
        || pair.size() != 2
        || !(pair.get(0) instanceof Long count)
        || !(pair.get(1) instanceof Long ttl)) {
      return unchecked(limit, now, new IllegalStateException("unexpected reply: " + reply));
    }
    if (unavailable) {
      unavailable = false;
      LOG.info("rate limits are enforced again: Redis answers", "store", description);
    }
    boolean allowed = count <= limit.requests();
    long remaining = allowed ? limit.requests() - count : 0;
    return new RateLimitDecision(allowed, limit, remaining, Duration.ofMillis(Math.max(0, ttl)));
  }

  /** The key of {@code key} ({@code <tool>\n<principal key>}, as the callers make it). */
  String redisKey(String key) {
    int newline = key.indexOf('\n');
    return newline < 0
        ? prefix + hex("SHA-256", key)
        : prefix + key.substring(0, newline) + ":" + hex("SHA-256", key.substring(newline + 1));
  }

  /** A call let through without a count: its headers show a fresh window. */
  private RateLimitDecision unchecked(RateLimit limit, long now, RuntimeException failure) {
    SvcMetrics.RATE_LIMIT_UNCHECKED.increment();
    long unchecked = uncheckedSinceWarning.incrementAndGet();
    long warnAt = nextWarningAt.get();
    if (failure != null
        && now - warnAt >= 0
        && nextWarningAt.compareAndSet(warnAt, now + WARNING_INTERVAL.toNanos())) {
      uncheckedSinceWarning.addAndGet(-unchecked);
      LOG.warn(
          "Redis did not answer: calls are let through without a rate-limit count",
          "store",
          description,
          "error",
          firstLine(failure.getMessage()),
          "unchecked_calls",
          unchecked);
    }
    return new RateLimitDecision(true, limit, limit.requests() - 1, limit.per());
  }

  @Override
  public void close() {
    redis.close();
  }

  @Override
  public String toString() {
    return description;
  }

  private static String firstLine(String message) {
    String text = String.valueOf(message);
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  private static String hex(String algorithm, String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
