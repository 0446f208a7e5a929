package dev.svc.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Checks tokens by asking the authorization server about them (RFC 7662), sparing it:
 *
 * <ul>
 *   <li>an active answer is remembered by the token's SHA-256 for the configured cache time, never
 *       past the token's {@code exp}: a token revoked meanwhile is accepted that long at most (zero
 *       asks on every request);
 *   <li>a refusal (inactive, or not for this server) is remembered for {@link #REFUSAL_CACHE_TIME},
 *       at most {@link #CACHE_SIZE} of them apart from the active ones, so a client retrying a bad
 *       token does not make svc ask again at each request and a flood of bad tokens cannot push
 *       good ones out;
 *   <li>callers with the same token while it is being asked about wait for that one answer;
 *   <li>at most {@link #CONCURRENT_CALLS} questions are in flight; beyond that a caller waits up to
 *       {@link IntrospectionEndpoint#TIMEOUT} for its turn, then gets {@link
 *       TokenCheck.Unavailable}.
 * </ul>
 *
 * An endpoint that cannot be reached or answers badly makes the token {@link
 * TokenCheck.Unavailable} (503), never rejected, and is not remembered.
 */
final class TokenIntrospector {
  static final int CACHE_SIZE = 10_000;
  static final Duration REFUSAL_CACHE_TIME = Duration.ofSeconds(10);
  static final int CONCURRENT_CALLS = 16;

  /** An answer and until when it holds. */
  private record Remembered(TokenCheck check, Instant until) {}

  private final OAuthPolicy policy;
  private final Duration cacheTime;
  private final Clock clock;
  private final Function<String, IntrospectionEndpoint.Reply> endpoint;
  private final Cache<String, Remembered> active;
  private final Cache<String, Remembered> refused;
  private final ConcurrentMap<String, CompletableFuture<TokenCheck>> asking =
      new ConcurrentHashMap<>();
  private final Semaphore calls = new Semaphore(CONCURRENT_CALLS);

  TokenIntrospector(OAuthPolicy policy, OAuthPolicy.Introspection settings, Clock clock) {
    this(policy, settings, clock, new IntrospectionEndpoint(policy, settings, clock)::ask);
  }

  TokenIntrospector(
      OAuthPolicy policy,
      OAuthPolicy.Introspection settings,
      Clock clock,
      Function<String, IntrospectionEndpoint.Reply> endpoint) {
    this.policy = policy;
    this.cacheTime = settings.cacheTime();
    this.clock = clock;
    this.endpoint = endpoint;
    this.active = cache();
    this.refused = cache();
  }

  private Cache<String, Remembered> cache() {
    return Caffeine.newBuilder()
        .maximumSize(CACHE_SIZE)
        .expireAfter(
            Expiry.<String, Remembered>creating(
                (key, remembered) -> Duration.between(clock.instant(), remembered.until())))
        .build();
  }

  /** Checks {@code token} by introspection; {@code hash} is its SHA-256. */
  TokenCheck check(String token, String hash) {
    Instant now = clock.instant();
    for (Cache<String, Remembered> cache : List.of(active, refused)) {
      Remembered known = cache.getIfPresent(hash);
      if (known != null && now.isBefore(known.until())) {
        return known.check();
      }
    }
    CompletableFuture<TokenCheck> mine = new CompletableFuture<>();
    CompletableFuture<TokenCheck> running = asking.putIfAbsent(hash, mine);
    if (running != null) {
      return running.join();
    }
    try {
      TokenCheck check = ask(token);
      remember(hash, check);
      mine.complete(check);
      return check;
    } catch (RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      asking.remove(hash, mine);
    }
  }

  private TokenCheck ask(String token) {
    try {
      if (!calls.tryAcquire(IntrospectionEndpoint.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        return new TokenCheck.Unavailable(
            "more than "
                + CONCURRENT_CALLS
                + " token introspections have been waiting for "
                + IntrospectionEndpoint.TIMEOUT.toSeconds()
                + " s",
            TokenCheck.INTROSPECTION_OUT_OF_REACH);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new TokenCheck.Unavailable(
          "interrupted while waiting to introspect a token", TokenCheck.INTROSPECTION_OUT_OF_REACH);
    }
    try {
      return switch (endpoint.apply(token)) {
        case IntrospectionEndpoint.Reply.Answered(var answer) ->
            IntrospectionAnswer.check(answer, policy, clock.instant());
        case IntrospectionEndpoint.Reply.Failed(String reason) ->
            new TokenCheck.Unavailable(reason, TokenCheck.INTROSPECTION_OUT_OF_REACH);
      };
    } finally {
      calls.release();
    }
  }

  private void remember(String hash, TokenCheck check) {
    Instant now = clock.instant();
    switch (check) {
      case TokenCheck.Verified verified -> {
        Instant until = now.plus(cacheTime);
        Instant expiry = verified.token().expiresAt();
        if (expiry.isBefore(until)) {
          until = expiry;
        }
        if (until.isAfter(now)) {
          active.put(hash, new Remembered(check, until));
        }
      }
      case TokenCheck.Rejected rejected ->
          refused.put(hash, new Remembered(check, now.plus(REFUSAL_CACHE_TIME)));
      case TokenCheck.Unavailable unavailable -> {}
    }
  }
}
