package dev.svc.cache;

import dev.svc.connector.ResolvedAdapter;
import dev.svc.connector.StateConnections;
import dev.svc.json.Json;
import dev.svc.log.Log;
import dev.svc.model.Model;
import dev.svc.model.ModelCodec;
import dev.svc.telemetry.SvcMetrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Results cached in Redis ({@code tools.cache.store}), shared by every instance that names the same
 * database: a result one instance stored is a hit on the others until its TTL ends.
 *
 * <p>The keys are those of the in-memory cache ({@link CacheKey}: tool, final inputs, the caller's
 * identity for tools with auth, page position) plus the digest of the tool's definition, hashed:
 * {@code svc:cache:<service>:<tool>:<SHA-256>}. So no input, principal or claim is readable in a
 * key name, and instances serving different definitions of a tool (a rolling deploy, a reload on
 * one instance) never read each other's results; a reload needs no flush, the changed tool's old
 * results just expire. A value is the cap that cut the result ({@code max_rows}, {@code max_bytes}
 * or nothing), a newline, then the result's JSON; it expires with the tool's TTL ({@code SET ...
 * PX}). A result weighing more than {@link #MAX_ENTRY_BYTES} (or than the in-memory bound, when
 * smaller) is not stored.
 *
 * <p><b>When Redis does not answer</b> (down, unreachable, slower than {@link #TIMEOUT}, or
 * answering an error), a lookup is a miss and a store is skipped: the call runs as if nothing were
 * cached. Each lookup and store that could not use Redis is counted in {@code
 * svc_cache_unavailable_total}; a warning is logged when an outage starts and a line when it ends,
 * not per call (errors Redis answers, such as {@code OOM} under {@code maxmemory}, are no outage:
 * they are logged at most every {@link #WARNING_INTERVAL}). After Redis could not be reached the
 * cache does not ask it for {@link #BACK_OFF}, so an outage costs the calls no time-outs past the
 * first.
 */
public final class RedisResultCache implements ResultCache {
  private static final Log LOG = Log.tagged("cache");

  /** What every key starts with. */
  public static final String PREFIX = "svc:cache:";

  /** Connect and read time-out of one round trip: a slow cache must not slow the calls down. */
  static final Duration TIMEOUT = Duration.ofMillis(250);

  /** How long the cache is not asked after Redis could not be reached. */
  static final Duration BACK_OFF = Duration.ofSeconds(1);

  /** The least time between two warnings about Redis answering with errors. */
  static final Duration WARNING_INTERVAL = Duration.ofSeconds(30);

  /** The heaviest result stored (its JSON and key, as {@link ResultCache#weight} counts). */
  public static final int MAX_ENTRY_BYTES = 4 * 1024 * 1024;

  /**
   * The most one reply of the cache's Redis may take ({@link StateConnections#redis}): an entry of
   * {@link #MAX_ENTRY_BYTES} characters as UTF-8 (at most 3 bytes each), and room for its framing.
   * A longer reply (a Redis that answers a GET with 2 GiB) is a miss, and the call runs.
   */
  static final long MAX_REPLY_BYTES = 3L * MAX_ENTRY_BYTES + 64 * 1024;

  private final Link link;
  private final String prefix;
  private final Model model;
  private final int maxEntryBytes;

  /** Each tool's digest, made on its first cached call. */
  private final Map<String, byte[]> digests = new ConcurrentHashMap<>();

  /**
   * Opens a pool on the adapter's database and checks it answers; when it does not, the cache still
   * starts (every lookup a miss, with a warning) and asks again on the next call.
   *
   * @param model the model whose tools' results are cached (a reload gets a view: {@link #serving})
   * @param maxBytes the in-memory cache's bound: no result heavier than it is stored either
   */
  public RedisResultCache(ResolvedAdapter adapter, Model model, long maxBytes) {
    this(adapter, model, maxBytes, PREFIX, System::nanoTime);
  }

  /**
   * @param prefix what every key starts with (tests give each their own)
   * @param nanoTime the clock of the back-off
   */
  RedisResultCache(
      ResolvedAdapter adapter, Model model, long maxBytes, String prefix, LongSupplier nanoTime) {
    this(
        new Link(
            StateConnections.redis(adapter, TIMEOUT, MAX_REPLY_BYTES),
            "the result cache (redis adapter `"
                + adapter.name()
                + "` at "
                + StateConnections.redisLocation(adapter)
                + ")",
            nanoTime),
        prefix,
        model,
        (int) Math.min(MAX_ENTRY_BYTES, maxBytes));
    link.check();
  }

  private RedisResultCache(Link link, String prefix, Model model, int maxEntryBytes) {
    this.link = link;
    this.prefix = prefix;
    this.model = model;
    this.maxEntryBytes = maxEntryBytes;
  }

  @Override
  public ResultCache serving(Model next) {
    return next == model ? this : new RedisResultCache(link, prefix, next, maxEntryBytes);
  }

  @Override
  public Optional<Cached> get(CacheKey key) {
    Optional<Cached> found = link.lookup(redisKey(key)).flatMap(RedisResultCache::decode);
    if (found.isPresent()) {
      link.hits.increment();
      SvcMetrics.CACHE_HITS.increment(key.tool());
    } else {
      link.misses.increment();
      SvcMetrics.CACHE_MISSES.increment(key.tool());
    }
    return found;
  }

  @Override
  public void put(CacheKey key, Cached result, Duration ttl, int size) {
    if (ResultCache.weight(key, size) > maxEntryBytes || !ttl.isPositive()) {
      return;
    }
    link.store(redisKey(key), encode(result), Math.max(1, ttl.toMillis()));
  }

  /** Nothing to drop: the changed tools' keys carry their new digest (see {@link #serving}). */
  @Override
  public void invalidateTools(Set<String> tools) {}

  /** None: the results are in Redis, not in this process. */
  @Override
  public long entries() {
    return 0;
  }

  /** None: the results are in Redis, not in this process. */
  @Override
  public long weight() {
    return 0;
  }

  @Override
  public long hits() {
    return link.hits.sum();
  }

  @Override
  public long misses() {
    return link.misses.sum();
  }

  /** Closes the pool every view of this cache shares. */
  @Override
  public void close() {
    try {
      link.redis.close();
    } catch (RuntimeException e) {
      LOG.warn("closing the result cache's Redis pool failed", "error", e.getMessage());
    }
  }

  @Override
  public String toString() {
    return link.description;
  }

  /** {@code <prefix><service>:<tool>:<SHA-256 of the tool's digest and the key's parts>}. */
  String redisKey(CacheKey key) {
    MessageDigest sha = sha256();
    sha.update(digests.computeIfAbsent(key.tool(), this::digest));
    part(sha, model.service().name());
    part(sha, key.tool());
    part(sha, key.inputs());
    part(sha, key.identity());
    sha.update(ByteBuffer.allocate(Long.BYTES).putLong(key.position()).array());
    return prefix
        + model.service().name()
        + ":"
        + key.tool()
        + ":"
        + HexFormat.of().formatHex(sha.digest());
  }

  private byte[] digest(String tool) {
    return model.tool(tool).map(ModelCodec::digest).orElse(new byte[0]);
  }

  /** A part with its length first, so that no two different keys hash the same bytes. */
  private static void part(MessageDigest sha, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
    sha.update(bytes);
  }

  private static String encode(Cached result) {
    return result.cutBy().orElse("") + "\n" + Json.MAPPER.writeValueAsString(result.payload());
  }

  /** The value read back; one that is not what {@link #encode} writes is a miss. */
  private static Optional<Cached> decode(String value) {
    int newline = value.indexOf('\n');
    if (newline < 0) {
      return Optional.empty();
    }
    String cutBy = value.substring(0, newline);
    try {
      JsonNode payload = Json.MAPPER.readTree(value.substring(newline + 1));
      return Optional.of(
          new Cached(payload, cutBy.isEmpty() ? Optional.empty() : Optional.of(cutBy)));
    } catch (JacksonException e) {
      LOG.debug("a cached value is not a result: read as a miss", "error", e.getOriginalMessage());
      return Optional.empty();
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The Redis pool and its health, shared by every view of one cache: an outage is noticed, logged
   * and backed off once, whichever model's calls meet it.
   */
  private static final class Link {
    final UnifiedJedis redis;
    final String description;
    final LongSupplier nanoTime;
    final AtomicLong askAgainAt;
    final AtomicBoolean unavailable = new AtomicBoolean();
    final AtomicLong nextRefusalWarningAt;
    final AtomicLong refusedSinceWarning = new AtomicLong();
    final LongAdder hits = new LongAdder();
    final LongAdder misses = new LongAdder();

    Link(UnifiedJedis redis, String description, LongSupplier nanoTime) {
      this.redis = redis;
      this.description = description;
      this.nanoTime = nanoTime;
      this.askAgainAt = new AtomicLong(nanoTime.getAsLong());
      this.nextRefusalWarningAt = new AtomicLong(nanoTime.getAsLong());
    }

    /** Asks Redis once at start: an outage then is logged before the first call meets it. */
    void check() {
      try {
        redis.ping();
      } catch (RuntimeException e) {
        unreachable(nanoTime.getAsLong(), e);
      }
    }

    Optional<String> lookup(String key) {
      long now = nanoTime.getAsLong();
      if (backingOff(now)) {
        SvcMetrics.CACHE_UNAVAILABLE.increment("lookup");
        return Optional.empty();
      }
      String value;
      try {
        value = redis.get(key);
      } catch (JedisDataException e) { // Redis answered an error: asking again may succeed
        SvcMetrics.CACHE_UNAVAILABLE.increment("lookup");
        refused(now, e);
        return Optional.empty();
      } catch (RuntimeException e) { // unreachable, timed out, closed: the call must not fail
        SvcMetrics.CACHE_UNAVAILABLE.increment("lookup");
        unreachable(now, e);
        return Optional.empty();
      }
      answered();
      return Optional.ofNullable(value);
    }

    void store(String key, String value, long ttlMillis) {
      long now = nanoTime.getAsLong();
      if (backingOff(now)) {
        SvcMetrics.CACHE_UNAVAILABLE.increment("store");
        return;
      }
      try {
        redis.set(key, value, SetParams.setParams().px(ttlMillis));
      } catch (JedisDataException e) { // e.g. OOM under maxmemory noeviction, READONLY replica
        SvcMetrics.CACHE_UNAVAILABLE.increment("store");
        refused(now, e);
        return;
      } catch (RuntimeException e) {
        SvcMetrics.CACHE_UNAVAILABLE.increment("store");
        unreachable(now, e);
        return;
      }
      answered();
    }

    private boolean backingOff(long now) {
      return unavailable.get() && now - askAgainAt.get() < 0;
    }

    /** Notes that Redis could not be reached: an outage starts (and is logged) unless one runs. */
    private void unreachable(long now, RuntimeException e) {
      askAgainAt.set(now + BACK_OFF.toNanos());
      if (unavailable.compareAndSet(false, true)) {
        LOG.warn(
            "the shared result cache cannot use Redis (it does not answer, or answered what svc"
                + " does not read): tool calls run without it",
            "store",
            description,
            "error",
            firstLine(e.getMessage()));
      }
    }

    /**
     * Notes that Redis answered a command with an error: not an outage (other keys and commands may
     * work), logged at most every {@link #WARNING_INTERVAL} with how many errors there were.
     */
    private void refused(long now, JedisDataException e) {
      long errors = refusedSinceWarning.incrementAndGet();
      long warnAt = nextRefusalWarningAt.get();
      if (now - warnAt >= 0
          && nextRefusalWarningAt.compareAndSet(warnAt, now + WARNING_INTERVAL.toNanos())) {
        refusedSinceWarning.addAndGet(-errors);
        LOG.warn(
            "Redis answered the result cache with an error: the call ran uncached",
            "store",
            description,
            "error",
            firstLine(e.getMessage()),
            "errors",
            errors);
      }
    }

    private void answered() {
      if (unavailable.get() && unavailable.compareAndSet(true, false)) {
        LOG.info("the shared result cache is used again: Redis answers", "store", description);
      }
    }

    private static String firstLine(String message) {
      String text = String.valueOf(message);
      int newline = text.indexOf('\n');
      return newline < 0 ? text : text.substring(0, newline);
    }
  }
}
