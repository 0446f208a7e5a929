package dev.svc.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.svc.telemetry.SvcMetrics;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import tools.jackson.databind.JsonNode;

/**
 * The in-memory result cache of one instance: bounded by an estimate of the bytes it holds
 * (size-aware eviction), each entry living for its tool's TTL. Not shared between instances.
 */
public final class ResultCache {
  /** Default bound of the cache: 64 MiB of results. */
  public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

  private final long maxBytes;

  /** Made on the first store: most projects cache nothing, and Caffeine costs start-up time. */
  private volatile Cache<CacheKey, Entry> cache;

  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  private record Entry(Cached result, long ttlNanos, int weight) {}

  /**
   * What identifies a cached result.
   *
   * @param inputs the canonical JSON of the final inputs
   * @param identity the caller's identity for tools with auth, else empty
   * @param position where the page starts: the position of the call's continuation cursor, else 0
   */
  public record CacheKey(String tool, String inputs, String identity, long position) {
    public CacheKey(String tool, String inputs, String identity) {
      this(tool, inputs, identity, 0);
    }
  }

  /**
   * A cached result: the payload as the tool's caps left it.
   *
   * @param cutBy the cap that cut it ({@code max_rows} or {@code max_bytes}), when one did
   */
  public record Cached(JsonNode payload, Optional<String> cutBy) {
    public Cached(JsonNode payload) {
      this(payload, Optional.empty());
    }
  }

  public ResultCache(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  private Cache<CacheKey, Entry> cache() {
    Cache<CacheKey, Entry> made = cache;
    if (made == null) {
      synchronized (this) {
        made = cache;
        if (made == null) {
          made = newCache(maxBytes);
          cache = made;
        }
      }
    }
    return made;
  }

  private static Cache<CacheKey, Entry> newCache(long maxBytes) {
    return Caffeine.newBuilder()
        .executor(Runnable::run) // upkeep on the caller: no common-pool thread woken per call
        .maximumWeight(maxBytes)
        .weigher((CacheKey key, Entry entry) -> entry.weight())
        .expireAfter(
            new Expiry<CacheKey, Entry>() {
              @Override
              public long expireAfterCreate(CacheKey key, Entry entry, long now) {
                return entry.ttlNanos();
              }

              @Override
              public long expireAfterUpdate(CacheKey key, Entry entry, long now, long current) {
                return entry.ttlNanos();
              }

              @Override
              public long expireAfterRead(CacheKey key, Entry entry, long now, long current) {
                return current;
              }
            })
        .build();
  }

  public Optional<Cached> get(CacheKey key) {
    Cache<CacheKey, Entry> made = cache;
    Entry entry = made == null ? null : made.getIfPresent(key);
    if (entry == null) {
      misses.increment();
      SvcMetrics.CACHE_MISSES.increment(key.tool());
      return Optional.empty();
    }
    hits.increment();
    SvcMetrics.CACHE_HITS.increment(key.tool());
    return Optional.of(entry.result());
  }

  /** Stores a result; {@code size} estimates its bytes (e.g. the length of its JSON). */
  public void put(CacheKey key, Cached result, Duration ttl, int size) {
    int weight = Math.max(64, size + key.inputs().length() + key.tool().length());
    cache().put(key, new Entry(result, ttl.toNanos(), weight));
  }

  /** Drops every result of the named tools (on reload). */
  public void invalidateTools(Set<String> tools) {
    Cache<CacheKey, Entry> made = cache;
    if (made == null) {
      return;
    }
    Iterator<Map.Entry<CacheKey, Entry>> it = made.asMap().entrySet().iterator();
    while (it.hasNext()) {
      if (tools.contains(it.next().getKey().tool())) {
        it.remove();
      }
    }
  }

  /** Results held now (expired ones may still count until cleaned up). */
  public long entries() {
    Cache<CacheKey, Entry> made = cache;
    return made == null ? 0 : made.estimatedSize();
  }

  /** Estimated bytes held now. */
  public long weight() {
    Cache<CacheKey, Entry> made = cache;
    return made == null
        ? 0
        : made.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
  }

  public long hits() {
    return hits.sum();
  }

  public long misses() {
    return misses.sum();
  }
}
