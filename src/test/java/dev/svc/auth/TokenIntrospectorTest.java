package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Jackson;
import dev.svc.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * How {@link TokenIntrospector} spares the authorization server: what it remembers, for how long,
 * and how many questions it asks at once. The endpoint is a scripted function (the HTTP side is
 * covered by {@code IntrospectionIT} and {@code McpIntrospectionIT}).
 */
class TokenIntrospectorTest {
  private static final String ISSUER = "https://auth.example.com";
  private static final String AUDIENCE = "https://svc.test/mcp";
  private static final OAuthPolicy POLICY =
      new OAuthPolicy(ISSUER, AUDIENCE, List.of(), Optional.empty());

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-25T12:00:00Z"));
  private final AtomicInteger questions = new AtomicInteger();
  private final AtomicReference<IntrospectionEndpoint.Reply> reply = new AtomicReference<>();

  private ObjectNode active(Duration lifetime) {
    ObjectNode answer = Jackson.MAPPER.createObjectNode();
    answer.put("active", true);
    answer.put("aud", AUDIENCE);
    answer.put("sub", "alice");
    answer.put("exp", clock.instant().plus(lifetime).getEpochSecond());
    return answer;
  }

  private TokenIntrospector introspector(Duration cacheTime) {
    return introspector(
        cacheTime,
        token -> {
          questions.incrementAndGet();
          return reply.get();
        });
  }

  private TokenIntrospector introspector(
      Duration cacheTime, Function<String, IntrospectionEndpoint.Reply> endpoint) {
    return new TokenIntrospector(
        POLICY,
        new OAuthPolicy.Introspection("svc", "secret", Optional.empty(), false, cacheTime),
        clock,
        endpoint);
  }

  private TokenCheck check(TokenIntrospector introspector, String token) {
    return introspector.check(token, TokenVerifier.sha256(token));
  }

  @Test
  void anActiveAnswerIsTrustedForTheCacheTimeThenAskedAgain() {
    TokenIntrospector introspector = introspector(Duration.ofSeconds(60));
    reply.set(new IntrospectionEndpoint.Reply.Answered(active(Duration.ofMinutes(5))));
    assertThat(check(introspector, "opaque-1")).isInstanceOf(TokenCheck.Verified.class);
    assertThat(check(introspector, "opaque-1")).isInstanceOf(TokenCheck.Verified.class);
    assertThat(questions).hasValue(1);

    clock.advance(Duration.ofSeconds(61));
    reply.set(
        new IntrospectionEndpoint.Reply.Answered(
            Jackson.MAPPER.createObjectNode().put("active", false)));
    assertThat(check(introspector, "opaque-1"))
        .as("revoked meanwhile: refused once the cache time is over")
        .isInstanceOf(TokenCheck.Rejected.class);
    assertThat(questions).hasValue(2);
  }

  @Test
  void anActiveAnswerIsNeverTrustedPastTheTokensExpiry() {
    TokenIntrospector introspector = introspector(Duration.ofMinutes(10));
    reply.set(new IntrospectionEndpoint.Reply.Answered(active(Duration.ofSeconds(20))));
    assertThat(check(introspector, "short-lived")).isInstanceOf(TokenCheck.Verified.class);
    clock.advance(Duration.ofSeconds(21));
    check(introspector, "short-lived");
    assertThat(questions).hasValue(2);
  }

  @Test
  void aZeroCacheTimeAsksOnEveryRequest() {
    TokenIntrospector introspector = introspector(Duration.ZERO);
    reply.set(new IntrospectionEndpoint.Reply.Answered(active(Duration.ofMinutes(5))));
    for (int i = 0; i < 3; i++) {
      assertThat(check(introspector, "opaque")).isInstanceOf(TokenCheck.Verified.class);
    }
    assertThat(questions).hasValue(3);
  }

  @Test
  void aRefusalIsRememberedBrieflyAndTheTokenNeverReachesTheCacheKey() {
    TokenIntrospector introspector = introspector(Duration.ofSeconds(60));
    reply.set(
        new IntrospectionEndpoint.Reply.Answered(
            Jackson.MAPPER.createObjectNode().put("active", false)));
    for (int i = 0; i < 5; i++) {
      assertThat(check(introspector, "bad")).isInstanceOf(TokenCheck.Rejected.class);
    }
    assertThat(questions).hasValue(1);
    clock.advance(TokenIntrospector.REFUSAL_CACHE_TIME.plusSeconds(1));
    check(introspector, "bad");
    assertThat(questions).hasValue(2);
  }

  @Test
  void anUnreachableEndpointIsNotRememberedAndSaysSo() {
    TokenIntrospector introspector = introspector(Duration.ofSeconds(60));
    reply.set(new IntrospectionEndpoint.Reply.Failed("cannot reach it"));
    assertThat(check(introspector, "opaque"))
        .isEqualTo(
            new TokenCheck.Unavailable("cannot reach it", TokenCheck.INTROSPECTION_OUT_OF_REACH));
    reply.set(new IntrospectionEndpoint.Reply.Answered(active(Duration.ofMinutes(5))));
    assertThat(check(introspector, "opaque")).isInstanceOf(TokenCheck.Verified.class);
    assertThat(questions).hasValue(2);
  }

  @Test
  void callersWithTheSameTokenShareOneQuestionAndAtMostSixteenAreAskedAtOnce() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger mostInFlight = new AtomicInteger();
    TokenIntrospector introspector =
        introspector(
            Duration.ofSeconds(60),
            token -> {
              questions.incrementAndGet();
              mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              inFlight.decrementAndGet();
              return new IntrospectionEndpoint.Reply.Answered(active(Duration.ofMinutes(5)));
            });
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<TokenCheck>> same = new java.util.ArrayList<>();
      for (int i = 0; i < 10; i++) {
        same.add(threads.submit(() -> check(introspector, "shared")));
      }
      List<Future<TokenCheck>> distinct = new java.util.ArrayList<>();
      for (int i = 0; i < 40; i++) {
        String token = "token-" + i;
        distinct.add(threads.submit(() -> check(introspector, token)));
      }
      Thread.sleep(300);
      release.countDown();
      for (Future<TokenCheck> one : same) {
        assertThat(one.get()).isInstanceOf(TokenCheck.Verified.class);
      }
      for (Future<TokenCheck> one : distinct) {
        assertThat(one.get()).isInstanceOf(TokenCheck.Verified.class);
      }
    }
    assertThat(mostInFlight.get()).isLessThanOrEqualTo(TokenIntrospector.CONCURRENT_CALLS);
    assertThat(questions.get()).as("one question for the ten callers of `shared`").isEqualTo(41);
  }
}
