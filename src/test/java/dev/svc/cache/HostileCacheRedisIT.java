package dev.svc.cache;

import static dev.svc.testing.FakeRedisServer.ascii;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cache.ResultCache.CacheKey;
import dev.svc.testing.FakeRedisServer;
import dev.svc.testing.ProjectFixture;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared result cache against a Redis (or a man in the middle) answering what no Redis sends: a
 * lookup is a miss and the call runs, never an error of the JVM (the launcher ends the process on
 * an {@code OutOfMemoryError}).
 */
class HostileCacheRedisIT {
  private static final CacheKey KEY = new CacheKey("lookup", "{\"city\":\"Paris\"}", "key:alice");

  @TempDir Path dir;

  /** 250,000 levels of one-element arrays: Jedis recursed once a level until its stack ended. */
  private static final byte[] DEEP = ascii("*1\r\n".repeat(250_000) + ":1\r\n");

  private RedisResultCache cacheOf(FakeRedisServer server) {
    return new RedisResultCache(
        server.adapter(),
        ProjectFixture.model(dir, RedisResultCacheIT.project("Looks the weather up.")),
        ResultCache.DEFAULT_MAX_BYTES,
        "svc:cache:",
        () -> 0); // a clock that stands still: a failure is backed off from for the whole test
  }

  private static Optional<byte[]> pong(List<String> command, byte[] otherwise) {
    return Optional.of(command.getFirst().equals("PING") ? ascii("+PONG\r\n") : otherwise);
  }

  @Test
  void aLookupAnsweredWithEndlessNestingIsAMiss() throws IOException {
    try (FakeRedisServer server = new FakeRedisServer(command -> pong(command, DEEP));
        RedisResultCache cache = cacheOf(server)) {
      assertThat(cache.get(KEY)).isEmpty();
      assertThat(cache.misses()).isEqualTo(1);
    }
  }

  @Test
  void aLookupAnsweredWithALengthOfTwoGibibytesIsAMissBeforeAnyArrayIsMade() throws IOException {
    byte[] announced = ascii("$2147483647\r\n");
    try (FakeRedisServer server = new FakeRedisServer(command -> pong(command, announced));
        RedisResultCache cache = cacheOf(server)) {
      assertThat(cache.get(KEY)).isEmpty();
    }
  }

  @Test
  void aValueLongerThanAnyEntrySvcWritesIsAMissAndItsConnectionIsDropped() throws IOException {
    int length = (int) RedisResultCache.MAX_REPLY_BYTES + 1024;
    byte[] header = ascii("$" + length + "\r\n");
    byte[] reply = Arrays.copyOf(header, header.length + length + 2);
    Arrays.fill(reply, header.length, header.length + length, (byte) 'a');
    reply[reply.length - 2] = '\r';
    reply[reply.length - 1] = '\n';
    try (FakeRedisServer server = new FakeRedisServer(command -> pong(command, reply));
        RedisResultCache cache = cacheOf(server)) {
      assertThat(cache.get(KEY)).isEmpty();
      // refused at its header, as an outage: the next lookup does not ask Redis (before, the
      // value was read whole, 12 MiB, and each lookup asked again)
      assertThat(cache.get(KEY)).isEmpty();
      assertThat(server.received("GET")).isEqualTo(1);
    }
  }
}
