package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.testing.TcpProxy;
import dev.svc.testing.TestRedis;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The task store contracts on the real Redis server, under keys of this class's own. */
class RedisTaskStoreIT extends SharedTaskStoreContract {
  @RegisterExtension static final TestRedis redis = new TestRedis();
  private static final AtomicInteger TESTS = new AtomicInteger();
  private String prefix;

  @BeforeEach
  void ownPrefix() {
    prefix = redis.prefix() + "t" + TESTS.incrementAndGet() + ":";
  }

  @Override
  TaskStore open(SharedTasks.Settings settings) {
    return new RedisTaskStore(redis.adapter(Map.of()), settings, prefix);
  }

  @Override
  TaskStore openThrough(TcpProxy proxy) {
    return new RedisTaskStore(
        redis.adapter("redis://127.0.0.1:" + proxy.port() + "/0", Map.of()),
        SharedTasks.Settings.DEFAULTS,
        prefix);
  }

  @Override
  InetSocketAddress server() {
    return new InetSocketAddress(redis.host(), redis.port());
  }

  @Test
  void theLayoutVersionIsSetOnFirstUse() {
    store().find(WEATHER_ALICE, "x");
    assertThat(new String((byte[]) redis.run(0, "GET", prefix + "schema_version")))
        .isEqualTo(String.valueOf(RedisTaskStore.SCHEMA_VERSION));
  }

  @Test
  void aNewerLayoutIsRefusedWithAMessage() {
    redis.run(0, "SET", prefix + "schema_version", "7");
    assertThatThrownBy(() -> open(SharedTasks.Settings.DEFAULTS))
        .isInstanceOf(TaskStoreException.class)
        .hasMessageContaining("schema version 7")
        .hasMessageContaining("redis adapter `db`");
  }
}
