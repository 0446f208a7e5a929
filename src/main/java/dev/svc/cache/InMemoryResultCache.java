package dev.svc.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.svc.json.JsonFootprint;
import dev.svc.telemetry.SvcMetrics;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * The in-memory result cache of one instance: bounded by an estimate of the bytes it holds
 * (size-aware eviction), each entry living for its tool's TTL. Not shared between instances.
 */
public final class InMemoryResultCache implements ResultCache {
  private final long maxBytes;

  /** Made on the first store: most projects cache nothing, and Caffeine costs start-up time. */
  private volatile Cache<CacheKey, Entry> cache;

  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  private record Entry(Cached result, long ttlNanos, int weight) {}

  /**
   * @param maxBytes the bound of the estimated bytes held; an entry weighing more is not kept
   */
  public InMemoryResultCache(long maxBytes) {
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

  @Override
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

  /**
   * Weighs a result by the heap its tree takes ({@link JsonFootprint}), not by its JSON's length:
   * the tree is 5–18 times larger (an empty array is two bytes of JSON and ~70 of heap), so a cache
   * bounded by JSON lengths held several times its bound and could fill the heap.
   */
  @Override
  public void put(CacheKey key, Cached result, Duration ttl, int size) {
    long heap = JsonFootprint.of(result.payload());
    int weight = ResultCache.weight(key, (int) Math.min(Integer.MAX_VALUE, heap));
    cache().put(key, new Entry(result, ttl.toNanos(), weight));
  }

  @Override
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
  @Override
  public long entries() {
    Cache<CacheKey, Entry> made = cache;
    return made == null ? 0 : made.estimatedSize();
  }

  /** Estimated bytes held now. */
  @Override
  public long weight() {
    Cache<CacheKey, Entry> made = cache;
    return made == null
        ? 0
        : made.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
  }

  @Override
  public long hits() {
    return hits.sum();
  }

  @Override
  public long misses() {
    return misses.sum();
  }
}
