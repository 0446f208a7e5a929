package dev.svc.protocol.a2a;

import dev.svc.testing.TestRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two instances sharing tasks through Redis. The stores use their production keys ({@code
 * svc:a2a:…}), so this class has database {@value #DATABASE} to itself and empties those keys.
 */
class RedisTwoInstancesIT extends TwoInstancesContract {
  static final int DATABASE = 13;
  @RegisterExtension static final TestRedis redis = new TestRedis();

  @Override
  String storeUrl() {
    return redis.connectionString(DATABASE);
  }

  @Override
  String connector() {
    return "redis";
  }

  @BeforeEach
  @AfterEach
  void removeTaskKeys() {
    redis.run(
        DATABASE,
        "EVAL",
        "for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end",
        "0",
        RedisTaskStore.PREFIX + "*");
  }
}
