package dev.svc.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.RateLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class InMemoryRateLimiterTest {
  private static final RateLimit THREE_PER_MINUTE = new RateLimit(3, Duration.ofMinutes(1));

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final InMemoryRateLimiter limiter = new InMemoryRateLimiter(now::get, 1000);

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  @Test
  void callsUpToTheLimitRunAndTheNextIsRefusedUntilTheWindowEnds() {
    assertThat(limiter.acquire("k", THREE_PER_MINUTE).remaining()).isEqualTo(2);
    assertThat(limiter.acquire("k", THREE_PER_MINUTE).remaining()).isEqualTo(1);
    RateLimitDecision third = limiter.acquire("k", THREE_PER_MINUTE);
    assertThat(third.allowed()).isTrue();
    assertThat(third.remaining()).isZero();

    advance(Duration.ofSeconds(42).plusMillis(1));
    RateLimitDecision fourth = limiter.acquire("k", THREE_PER_MINUTE);
    assertThat(fourth.allowed()).isFalse();
    assertThat(fourth.remaining()).isZero();
    assertThat(fourth.resetAfter()).isEqualTo(Duration.ofSeconds(17).plusMillis(999));
    assertThat(fourth.retryAfterSeconds()).isEqualTo(18);
  }

  @Test
  void aNewWindowStartsExactlyWhenTheOldOneEnds() {
    for (int i = 0; i < 3; i++) {
      limiter.acquire("k", THREE_PER_MINUTE);
    }
    advance(Duration.ofMinutes(1).minusNanos(1));
    assertThat(limiter.acquire("k", THREE_PER_MINUTE).allowed()).isFalse();
    assertThat(limiter.acquire("k", THREE_PER_MINUTE).retryAfterSeconds()).isEqualTo(1);

    advance(Duration.ofNanos(1));
    RateLimitDecision fresh = limiter.acquire("k", THREE_PER_MINUTE);
    assertThat(fresh.allowed()).isTrue();
    assertThat(fresh.remaining()).isEqualTo(2);
    assertThat(fresh.resetAfter()).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void refusedCallsAreNotCountedAgainstTheNextWindow() {
    for (int i = 0; i < 10; i++) {
      limiter.acquire("k", THREE_PER_MINUTE);
    }
    advance(Duration.ofMinutes(1));
    assertThat(limiter.acquire("k", THREE_PER_MINUTE).remaining()).isEqualTo(2);
  }

  @Test
  void keysAreCountedApart() {
    for (int i = 0; i < 3; i++) {
      limiter.acquire("tool\nkey:a", THREE_PER_MINUTE);
    }
    assertThat(limiter.acquire("tool\nkey:a", THREE_PER_MINUTE).allowed()).isFalse();
    assertThat(limiter.acquire("tool\nkey:b", THREE_PER_MINUTE).allowed()).isTrue();
    assertThat(limiter.acquire("other\nkey:a", THREE_PER_MINUTE).allowed()).isTrue();
  }

  @Test
  void sixtyFourThreadsNeverGetMoreCallsThroughThanTheLimit() throws Exception {
    InMemoryRateLimiter real = new InMemoryRateLimiter();
    RateLimit limit = new RateLimit(1000, Duration.ofHours(1));
    int threads = 64;
    int callsEach = 200; // 12 800 calls, 1000 allowed
    AtomicInteger allowed = new AtomicInteger();
    AtomicInteger otherAllowed = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            pool.submit(() -> {
              start.await();
              for (int i = 0; i < callsEach; i++) {
                if (real.acquire("hot", limit).allowed()) {
                  allowed.incrementAndGet();
                }
                if (real.acquire("own-" + thread, limit).allowed()) {
                  otherAllowed.incrementAndGet();
                }
              }
              return null;
            }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(allowed.get()).isEqualTo(1000);
    assertThat(otherAllowed.get()).isEqualTo(threads * callsEach); // each under its own limit
  }

  @Test
  void endedWindowsAreForgottenAndTheKeysStayBounded() {
    InMemoryRateLimiter small = new InMemoryRateLimiter(now::get, 100);
    for (int i = 0; i < 10_000; i++) {
      small.acquire("key-" + i, THREE_PER_MINUTE);
    }
    small.cleanUp();
    assertThat(small.size()).isLessThanOrEqualTo(100);
    advance(Duration.ofMinutes(2));
    small.cleanUp();
    assertThat(small.size()).isZero();
  }

  @Test
  void theHeadersFollowTheIetfDraft() {
    limiter.acquire("k", THREE_PER_MINUTE);
    advance(Duration.ofSeconds(43));
    RateLimitDecision second = limiter.acquire("k", THREE_PER_MINUTE);
    assertThat(second.headers("search"))
        .containsOnly(
            Map.entry("RateLimit-Policy", "\"search\";q=3;w=60"),
            Map.entry("RateLimit", "\"search\";r=1;t=17"));
    limiter.acquire("k", THREE_PER_MINUTE);
    RateLimitDecision refused = limiter.acquire("k", THREE_PER_MINUTE);
    assertThat(refused.headers("search"))
        .containsOnly(
            Map.entry("RateLimit-Policy", "\"search\";q=3;w=60"),
            Map.entry("RateLimit", "\"search\";r=0;t=17"),
            Map.entry("Retry-After", "17"));
  }
}
