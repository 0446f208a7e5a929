package dev.svc.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cache.ResultCache.CacheKey;
import dev.svc.cache.ResultCache.Cached;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.json.Json;
import dev.svc.model.Model;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.TcpProxy;
import dev.svc.testing.TestRedis;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RedisResultCache} on the real Redis server, in database {@value #DATABASE} under keys of
 * this class's own (deleted after it): results shared between caches, their TTL, what keeps keys
 * apart, what a key name shows, and what happens when Redis goes away.
 */
class RedisResultCacheIT {
  static final int DATABASE = 13;
  private static final AtomicInteger TESTS = new AtomicInteger();

  @RegisterExtension static final TestRedis redis = new TestRedis();
  @TempDir Path dir;

  private final List<ResultCache> opened = new ArrayList<>();
  private final AtomicLong clock = new AtomicLong();
  private String prefix;
  private Model model;

  static String project(String description) {
    return """
    == .svc
    name: cachetest
    == app/adapters/data.terse
    connector: redis
    connection_string: redis://127.0.0.1:6379/13
    == app/tools/lookup/config.terse
    description: %s
    use: data
    statement: PING
    """
        .formatted(description);
  }

  static final CacheKey KEY = new CacheKey("lookup", "{\"city\":\"Paris\"}", "key:alice");
  static final Cached RESULT = new Cached(Json.MAPPER.readTree("[{\"forecast\":\"sunny\"}]"));

  @BeforeEach
  void ownPrefixAndModel() {
    prefix = redis.prefix() + "c" + TESTS.incrementAndGet() + ":";
    model = ProjectFixture.model(dir, project("Looks the weather up."));
  }

  @AfterEach
  void closeCaches() {
    opened.forEach(ResultCache::close);
  }

  RedisResultCache cache() {
    return cache(redis.adapter(redis.connectionString(DATABASE), Map.of()));
  }

  RedisResultCache cache(ResolvedAdapter adapter) {
    RedisResultCache cache =
        new RedisResultCache(adapter, model, ResultCache.DEFAULT_MAX_BYTES, prefix, clock::get);
    opened.add(cache);
    return cache;
  }

  @Test
  void aResultOneCacheStoredIsAHitOnAnotherWithTheCapThatCutIt() {
    RedisResultCache first = cache();
    RedisResultCache second = cache();
    Cached cut = new Cached(RESULT.payload(), Optional.of("max_rows"));
    long hits = SvcMetrics.CACHE_HITS.value("lookup");
    long misses = SvcMetrics.CACHE_MISSES.value("lookup");

    assertThat(second.get(KEY)).isEmpty();
    first.put(KEY, cut, Duration.ofMinutes(1), 100);

    assertThat(second.get(KEY)).contains(cut);
    assertThat(second.hits()).isEqualTo(1);
    assertThat(second.misses()).isEqualTo(1);
    assertThat(SvcMetrics.CACHE_HITS.value("lookup") - hits).isEqualTo(1);
    assertThat(SvcMetrics.CACHE_MISSES.value("lookup") - misses).isEqualTo(1);
  }

  @Test
  void aResultExpiresWithItsTtlWhichRedisHolds() throws InterruptedException {
    RedisResultCache cache = cache();
    cache.put(KEY, RESULT, Duration.ofMillis(400), 100);

    long ttl = (Long) redis.run(DATABASE, "PTTL", cache.redisKey(KEY));
    assertThat(ttl).isBetween(1L, 400L);
    assertThat(cache.get(KEY)).contains(RESULT);
    Thread.sleep(600);
    assertThat(cache.get(KEY)).isEmpty();
  }

  @Test
  void callersInputsPagesAndToolDefinitionsEachHaveTheirOwnResults() {
    RedisResultCache cache = cache();
    cache.put(KEY, RESULT, Duration.ofMinutes(1), 100);

    assertThat(cache.get(new CacheKey("lookup", KEY.inputs(), "key:bob"))).isEmpty();
    assertThat(cache.get(new CacheKey("lookup", KEY.inputs(), ""))).isEmpty();
    assertThat(cache.get(new CacheKey("lookup", "{\"city\":\"Rome\"}", KEY.identity()))).isEmpty();
    assertThat(cache.get(new CacheKey("lookup", KEY.inputs(), KEY.identity(), 10))).isEmpty();
    // the same tool name, defined otherwise: another instance (or this one after a reload)
    Model changed = ProjectFixture.model(dir.resolve("changed"), project("Looks it up anew."));
    assertThat(cache.serving(changed).get(KEY)).isEmpty();
    assertThat(cache.serving(model).get(KEY)).contains(RESULT);
  }

  @Test
  void keyNamesShowTheServiceAndToolButNoInputOrCaller() {
    RedisResultCache cache = cache();
    cache.put(KEY, RESULT, Duration.ofMinutes(1), 100);

    List<?> page =
        (List<?>) redis.run(DATABASE, "SCAN", "0", "MATCH", prefix + "*", "COUNT", "10000");
    List<String> keys = ((List<?>) page.get(1)).stream().map(TestRedis::text).toList();
    assertThat(keys).containsExactly(cache.redisKey(KEY));
    assertThat(keys.getFirst())
        .matches(java.util.regex.Pattern.quote(prefix) + "cachetest:lookup:[0-9a-f]{64}")
        .doesNotContain("alice")
        .doesNotContain("Paris");
  }

  @Test
  void aResultHeavierThanTheBoundIsNotStored() {
    RedisResultCache small =
        new RedisResultCache(
            redis.adapter(redis.connectionString(DATABASE), Map.of()),
            model,
            1024,
            prefix,
            clock::get);
    opened.add(small);

    small.put(KEY, RESULT, Duration.ofMinutes(1), 2000);
    assertThat(small.get(KEY)).isEmpty();
    small.put(KEY, RESULT, Duration.ofMinutes(1), 500);
    assertThat(small.get(KEY)).contains(RESULT);
  }

  @Test
  void aValueSvcDidNotWriteIsAMiss() {
    RedisResultCache cache = cache();
    redis.run(DATABASE, "SET", cache.redisKey(KEY), "not a cached result");
    assertThat(cache.get(KEY)).isEmpty();
    redis.run(DATABASE, "SET", cache.redisKey(KEY), "\n{broken");
    assertThat(cache.get(KEY)).isEmpty();

    redis.run(DATABASE, "DEL", cache.redisKey(KEY));
    redis.run(DATABASE, "HSET", cache.redisKey(KEY), "field", "value");
    long unavailable = SvcMetrics.CACHE_UNAVAILABLE.value("lookup");
    assertThat(cache.get(KEY)).isEmpty(); // WRONGTYPE: Redis answered with an error
    assertThat(SvcMetrics.CACHE_UNAVAILABLE.value("lookup") - unavailable).isEqualTo(1);
    cache.put(KEY, RESULT, Duration.ofMinutes(1), 100); // SET replaces whatever was there
    assertThat(cache.get(KEY)).contains(RESULT);
  }

  @Test
  void anUnreachableRedisAtStartMakesMissesAndSkippedStoresThatAreCounted() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    RedisResultCache cache = cache(redis.adapter("redis://127.0.0.1:" + closed + "/0", Map.of()));
    long lookups = SvcMetrics.CACHE_UNAVAILABLE.value("lookup");
    long stores = SvcMetrics.CACHE_UNAVAILABLE.value("store");

    for (int i = 0; i < 3; i++) {
      assertThat(cache.get(KEY)).isEmpty();
      cache.put(KEY, RESULT, Duration.ofMinutes(1), 100);
    }

    assertThat(SvcMetrics.CACHE_UNAVAILABLE.value("lookup") - lookups).isEqualTo(3);
    assertThat(SvcMetrics.CACHE_UNAVAILABLE.value("store") - stores).isEqualTo(3);
    assertThat(cache.misses()).isEqualTo(3);
  }

  @Test
  void aClosedCacheMissesAndSkipsWithoutAnException() {
    RedisResultCache cache = cache();
    cache.put(KEY, RESULT, Duration.ofMinutes(1), 100);
    cache.close();
    assertThat(cache.get(KEY)).isEmpty();
    cache.put(KEY, RESULT, Duration.ofMinutes(1), 100);
  }

  @Test
  void whenRedisGoesAwayCallsMissQuicklyAndWhenItComesBackTheResultsAreThere() throws Exception {
    try (TcpProxy proxy = TcpProxy.to(redis.host(), redis.port())) {
      RedisResultCache cache =
          cache(redis.adapter("redis://127.0.0.1:" + proxy.port() + "/" + DATABASE, Map.of()));
      cache.put(KEY, RESULT, Duration.ofMinutes(1), 100);
      assertThat(cache.get(KEY)).contains(RESULT);

      proxy.cut();
      long lookups = SvcMetrics.CACHE_UNAVAILABLE.value("lookup");
      long started = System.nanoTime();
      for (int i = 0; i < 20; i++) {
        assertThat(cache.get(KEY)).isEmpty();
      }
      // one failed round trip at most (250 ms), then the back-off asks no more
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
      assertThat(SvcMetrics.CACHE_UNAVAILABLE.value("lookup") - lookups).isEqualTo(20);

      proxy.resume();
      clock.addAndGet(RedisResultCache.BACK_OFF.toNanos());
      assertThat(cache.get(KEY)).contains(RESULT);
    }
  }

  @Test
  void manyCallsAtOnceReadAndWriteWithoutFailing() throws Exception {
    RedisResultCache cache = cache();
    List<Callable<Optional<Cached>>> calls = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      CacheKey key = new CacheKey("lookup", "{\"n\":" + (i % 8) + "}", "");
      calls.add(() -> {
        cache.put(key, RESULT, Duration.ofMinutes(1), 100);
        return cache.get(key);
      });
    }
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (Future<Optional<Cached>> answer : pool.invokeAll(calls)) {
        assertThat(answer.get()).contains(RESULT);
      }
    }
  }
}
