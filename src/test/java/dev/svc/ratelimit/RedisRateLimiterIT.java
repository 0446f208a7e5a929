package dev.svc.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.connector.ResolvedAdapter;
import dev.svc.model.RateLimit;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.testing.TcpProxy;
import dev.svc.testing.TestRedis;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

/**
 * {@link RedisRateLimiter} on the real Redis server, in database {@value #DATABASE} under keys of
 * this class's own (deleted after it): the limit, the window, the count two instances share, and
 * what happens when Redis goes away.
 */
class RedisRateLimiterIT {
  static final int DATABASE = 12;
  static final RateLimit THREE_PER_TEN_SECONDS = new RateLimit(3, Duration.ofSeconds(10));
  private static final AtomicInteger TESTS = new AtomicInteger();

  @RegisterExtension static final TestRedis redis = new TestRedis();

  private final List<RateLimiter> opened = new ArrayList<>();
  private final AtomicLong clock = new AtomicLong();
  private String prefix;

  @BeforeEach
  void ownPrefix() {
    prefix = redis.prefix() + "rl" + TESTS.incrementAndGet() + ":";
  }

  @AfterEach
  void closeLimiters() {
    opened.forEach(RateLimiter::close);
  }

  RedisRateLimiter limiter() {
    return limiter(redis.adapter(redis.connectionString(DATABASE), Map.of()));
  }

  RedisRateLimiter limiter(ResolvedAdapter adapter) {
    RedisRateLimiter limiter = new RedisRateLimiter(adapter, prefix, clock::get);
    opened.add(limiter);
    return limiter;
  }

  @Test
  void theCallPastTheLimitIsRefusedWithTheTimeLeftInTheWindow() {
    RedisRateLimiter limiter = limiter();
    List<Long> remaining = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      RateLimitDecision allowed = limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS);
      assertThat(allowed.allowed()).isTrue();
      assertThat(allowed.resetAfter()).isBetween(Duration.ofSeconds(9), Duration.ofSeconds(10));
      remaining.add(allowed.remaining());
    }
    assertThat(remaining).containsExactly(2L, 1L, 0L);

    RateLimitDecision refused = limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS);
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.remaining()).isZero();
    assertThat(refused.resetAfter()).isBetween(Duration.ofSeconds(9), Duration.ofSeconds(10));
    assertThat(refused.retryAfterSeconds()).isEqualTo(10);
    assertThat(refused.headers("search"))
        .containsEntry("Retry-After", "10")
        .containsEntry("RateLimit-Policy", "\"search\";q=3;w=10");

    limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS);
    String key = limiter.redisKey("search\nkey:aa");
    assertThat(TestRedis.text(redis.run(DATABASE, "GET", key)))
        .as("refused calls are not counted")
        .isEqualTo("4");
    assertThat((Long) redis.run(DATABASE, "PTTL", key)).isBetween(1L, 10_000L);
  }

  @Test
  void aNewWindowOpensWhenTheOldOneEnds() throws InterruptedException {
    RedisRateLimiter limiter = limiter();
    RateLimit twoPerQuarterSecond = new RateLimit(2, Duration.ofMillis(250));
    limiter.acquire("search\nkey:aa", twoPerQuarterSecond);
    limiter.acquire("search\nkey:aa", twoPerQuarterSecond);
    assertThat(limiter.acquire("search\nkey:aa", twoPerQuarterSecond).allowed()).isFalse();

    Thread.sleep(400);

    RateLimitDecision again = limiter.acquire("search\nkey:aa", twoPerQuarterSecond);
    assertThat(again.allowed()).isTrue();
    assertThat(again.remaining()).isEqualTo(1);
  }

  @Test
  void twoInstancesShareOneCount() {
    RedisRateLimiter first = limiter();
    RedisRateLimiter second = limiter();
    assertThat(first.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).remaining()).isEqualTo(2);
    assertThat(second.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).remaining()).isEqualTo(1);
    assertThat(first.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).remaining()).isZero();
    assertThat(second.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).allowed()).isFalse();
    assertThat(first.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).allowed()).isFalse();
  }

  @Test
  void otherPrincipalsAndOtherToolsKeepTheirOwnCounts() {
    RedisRateLimiter limiter = limiter();
    for (int i = 0; i < 4; i++) {
      limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS);
    }
    assertThat(limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).allowed()).isFalse();

    RateLimitDecision otherPrincipal = limiter.acquire("search\nkey:bb", THREE_PER_TEN_SECONDS);
    RateLimitDecision otherTool = limiter.acquire("orders\nkey:aa", THREE_PER_TEN_SECONDS);
    assertThat(otherPrincipal.allowed()).isTrue();
    assertThat(otherPrincipal.remaining()).isEqualTo(2);
    assertThat(otherTool.allowed()).isTrue();
    assertThat(otherTool.remaining()).isEqualTo(2);
  }

  @Test
  void concurrentCallsOfTwoInstancesNeverLetMoreThanTheLimitThrough() throws Exception {
    RedisRateLimiter first = limiter();
    RedisRateLimiter second = limiter();
    RateLimit fifty = new RateLimit(50, Duration.ofSeconds(30));
    List<Callable<Boolean>> calls = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      RedisRateLimiter limiter = i % 2 == 0 ? first : second;
      calls.add(() -> limiter.acquire("search\nkey:aa", fifty).allowed());
    }
    int allowed = 0;
    try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
      for (Future<Boolean> call : pool.invokeAll(calls)) {
        allowed += call.get() ? 1 : 0;
      }
    }
    assertThat(allowed).isEqualTo(50);
  }

  @Test
  void keysHoldNeitherSubjectsNorAddressesNorCredentials() {
    RedisRateLimiter limiter = limiter();
    limiter.acquire("search\noauth:alice@example.com", THREE_PER_TEN_SECONDS);
    limiter.acquire("search\nip:203.0.113.9", THREE_PER_TEN_SECONDS);
    limiter.acquire("search\nkey:0123456789abcdef", THREE_PER_TEN_SECONDS);

    List<?> page =
        (List<?>) redis.run(DATABASE, "SCAN", "0", "MATCH", prefix + "*", "COUNT", "1000");
    List<String> keys = ((List<?>) page.get(1)).stream().map(TestRedis::text).toList();
    assertThat(keys).hasSize(3);
    assertThat(keys)
        .allSatisfy(key ->
            assertThat(key)
                .startsWith(prefix + "search:")
                .matches(".*:search:[0-9a-f]{64}")
                .doesNotContain("alice", "203.0.113", "0123456789abcdef"));
  }

  @Test
  void aRedisThatCannotBeReachedLetsCallsThroughAndCountsThem() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    long before = SvcMetrics.RATE_LIMIT_UNCHECKED.value();
    RedisRateLimiter limiter =
        limiter(redis.adapter("redis://127.0.0.1:" + closedPort + "/" + DATABASE, Map.of()));
    for (int i = 0; i < 5; i++) {
      RateLimitDecision decision = limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS);
      assertThat(decision.allowed()).isTrue();
      assertThat(decision.remaining()).isEqualTo(2);
      assertThat(decision.resetAfter()).isEqualTo(Duration.ofSeconds(10));
    }
    assertThat(SvcMetrics.RATE_LIMIT_UNCHECKED.value() - before).isEqualTo(5);
  }

  @Test
  void aClosedLimiterLetsCallsThroughWithoutAnException() {
    RedisRateLimiter limiter = limiter();
    limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS);
    limiter.close();
    assertThat(limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).allowed()).isTrue();
  }

  @Test
  void whenRedisGoesAwayCallsPassUncheckedAndTheCountResumesOnceItIsBack() throws Exception {
    try (TcpProxy proxy = TcpProxy.to(redis.host(), redis.port())) {
      RedisRateLimiter limiter =
          limiter(redis.adapter("redis://127.0.0.1:" + proxy.port() + "/" + DATABASE, Map.of()));
      assertThat(limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).remaining()).isEqualTo(2);

      proxy.cut();
      long before = SvcMetrics.RATE_LIMIT_UNCHECKED.value();
      for (int i = 0; i < 6; i++) {
        assertThat(limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).allowed()).isTrue();
      }
      assertThat(SvcMetrics.RATE_LIMIT_UNCHECKED.value() - before).isEqualTo(6);

      proxy.resume();
      assertThat(limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).remaining())
          .as("within the back-off Redis is not asked")
          .isEqualTo(2);
      clock.addAndGet(RedisRateLimiter.BACK_OFF.toNanos());
      assertThat(limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).remaining())
          .as("the count of before the outage goes on")
          .isEqualTo(1);
    }
  }

  @Test
  void aKeyHoldingSomethingElseLetsItsCallsThroughAndLeavesOtherKeysCounted() {
    RedisRateLimiter limiter = limiter();
    redis.run(DATABASE, "SET", limiter.redisKey("search\nkey:aa"), "not a number");
    assertThat(limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS).allowed()).isTrue();
    assertThat(limiter.acquire("search\nkey:bb", THREE_PER_TEN_SECONDS).remaining()).isEqualTo(2);
  }

  @Test
  void aCountWithoutATimeToLiveGetsTheWindow() {
    RedisRateLimiter limiter = limiter();
    String key = limiter.redisKey("search\nkey:aa");
    redis.run(DATABASE, "SET", key, "3");
    RateLimitDecision refused = limiter.acquire("search\nkey:aa", THREE_PER_TEN_SECONDS);
    assertThat(refused.allowed()).isFalse();
    assertThat((Long) redis.run(DATABASE, "PTTL", key)).isBetween(1L, 10_000L);
  }
}
