package dev.svc.ratelimit;

import static dev.svc.testing.FakeRedisServer.ascii;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.RateLimit;
import dev.svc.testing.FakeRedisServer;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The shared rate limiter against a Redis (or a man in the middle) answering what no Redis sends:
 * the check passes unchecked, as when Redis is unreachable (the documented outage behaviour), and
 * Redis is asked again after the back-off; never an error of the JVM.
 */
class HostileRateLimitRedisIT {
  private static final RateLimit THREE_PER_TEN_SECONDS = new RateLimit(3, Duration.ofSeconds(10));

  private static RedisRateLimiter limiterOf(FakeRedisServer server) {
    // a clock that stands still: a failure is backed off from for the whole test
    return new RedisRateLimiter(server.adapter(), "svc:rl:", () -> 0);
  }

  private static Optional<byte[]> pong(List<String> command, byte[] otherwise) {
    return Optional.of(command.getFirst().equals("PING") ? ascii("+PONG\r\n") : otherwise);
  }

  @Test
  void aCheckAnsweredWithEndlessNestingPassesUncheckedAsInAnOutage() throws IOException {
    byte[] deep = ascii("*1\r\n".repeat(250_000) + ":1\r\n");
    try (FakeRedisServer server = new FakeRedisServer(command -> pong(command, deep));
        RedisRateLimiter limiter = limiterOf(server)) {
      assertThat(limiter.acquire("lookup\nkey:alice", THREE_PER_TEN_SECONDS).allowed()).isTrue();
    }
  }

  @Test
  void aReplyFarLongerThanTwoCountsIsAnOutageNotReadWhole() throws IOException {
    // 100,000 integers: 400 KB where the limiter's script answers two numbers
    byte[] huge = ascii("*100000\r\n" + ":1\r\n".repeat(100_000));
    try (FakeRedisServer server = new FakeRedisServer(command -> pong(command, huge));
        RedisRateLimiter limiter = limiterOf(server)) {
      assertThat(limiter.acquire("lookup\nkey:alice", THREE_PER_TEN_SECONDS).allowed()).isTrue();
      assertThat(limiter.acquire("lookup\nkey:alice", THREE_PER_TEN_SECONDS).allowed()).isTrue();
      // an outage: the second check was not sent (before, the reply was read and each asked)
      assertThat(server.received("EVALSHA")).isEqualTo(1);
    }
  }
}
