package dev.svc.cache;

import dev.svc.model.Model;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The result cache of tool calls: {@link InMemoryResultCache} per instance (the default), {@link
 * RedisResultCache} shared by every instance that names the same Redis ({@code tools.cache.store}).
 * Both key results alike ({@link CacheKey}) and keep each for its tool's TTL; the tool pipeline
 * does not know which one it has. Implementations are safe for concurrent use, and a cache that
 * cannot answer treats a lookup as a miss: caching never fails a call.
 */
public sealed interface ResultCache extends AutoCloseable
    permits InMemoryResultCache, RedisResultCache {
  /** Default bound of the in-memory cache: 64 MiB of results. */
  long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

  /**
   * What identifies a cached result.
   *
   * @param inputs the canonical JSON of the final inputs
   * @param identity the caller's identity for tools with auth, else empty
   * @param position where the page starts: the position of the call's continuation cursor, else 0
   */
  record CacheKey(String tool, String inputs, String identity, long position) {
    public CacheKey(String tool, String inputs, String identity) {
      this(tool, inputs, identity, 0);
    }
  }

  /**
   * A cached result: the payload as the tool's caps left it.
   *
   * @param cutBy the cap that cut it ({@code max_rows} or {@code max_bytes}), when one did
   */
  record Cached(JsonNode payload, Optional<String> cutBy) {
    public Cached(JsonNode payload) {
      this(payload, Optional.empty());
    }
  }

  /** The cached result of {@code key}, when there is one (a hit or a miss is counted). */
  Optional<Cached> get(CacheKey key);

  /**
   * Stores a result for {@code ttl}; {@code size} estimates its bytes (e.g. the length of its
   * JSON). A result too big for the cache is not stored.
   */
  void put(CacheKey key, Cached result, Duration ttl, int size);

  /** Drops every result of the named tools (on reload: they changed). */
  void invalidateTools(Set<String> tools);

  /**
   * The cache the calls of {@code model} use, sharing this one's results: this cache itself for the
   * in-memory one (a reload drops changed tools' results with {@link #invalidateTools}); for Redis,
   * a view whose keys carry the digest of each tool of {@code model}.
   */
  default ResultCache serving(Model model) {
    return this;
  }

  /** Results held in this process now (expired ones may still count until cleaned up). */
  long entries();

  /** Estimated bytes of the results held in this process now. */
  long weight();

  /** Lookups answered from the cache since it was made. */
  long hits();

  /** Lookups the cache could not answer since it was made. */
  long misses();

  /** Releases what the cache holds (connections); never throws. */
  @Override
  default void close() {}

  /** The weight of a result of {@code size} bytes under {@code key}: what it costs to keep. */
  static int weight(CacheKey key, int size) {
    long weight = (long) size + key.inputs().length() + key.tool().length();
    return (int) Math.min(Integer.MAX_VALUE, Math.max(64, weight));
  }
}
