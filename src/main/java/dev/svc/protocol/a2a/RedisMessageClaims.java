package dev.svc.protocol.a2a;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;

/**
 * The Redis task store's received message ids: one string per claim, {@code
 * <prefix>message:<claim>} ({@link MessageClaims#key}) holding the task's id, set with {@code NX}
 * so that of two instances receiving the same message at once one wins, and expiring after the
 * retention. The Redis side of {@link PostgresMessageClaims}.
 */
final class RedisMessageClaims {
  private static final String RELEASE =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end"
          + " return 0";

  private final UnifiedJedis redis;
  private final String prefix;
  private final RedisTaskCalls calls;
  private final Duration retention;

  RedisMessageClaims(UnifiedJedis redis, String prefix, RedisTaskCalls calls, Duration retention) {
    this.redis = redis;
    this.prefix = prefix;
    this.calls = calls;
    this.retention = retention;
  }

  private String key(TaskStore.Scope scope, String messageId) {
    return prefix + "message:" + MessageClaims.key(scope, messageId);
  }

  Optional<String> claim(TaskStore.Scope scope, String messageId, String taskId) {
    String key = key(scope, messageId);
    // a claim that expired between the set and the read is claimed anew
    for (int attempt = 0; attempt < 3; attempt++) {
      String set =
          calls.call(
              "claim a message id",
              () -> redis.set(key, taskId, SetParams.setParams().nx().px(retention.toMillis())));
      if ("OK".equals(set)) {
        return Optional.empty();
      }
      String holder = calls.call("read a message id's task", () -> redis.get(key));
      if (holder != null) {
        return Optional.of(holder);
      }
    }
    throw new TaskStoreException("a message id could not be claimed: it changed hands three times");
  }

  void release(TaskStore.Scope scope, String messageId, String taskId) {
    calls.call(
        "release a message id",
        () -> redis.eval(RELEASE, List.of(key(scope, messageId)), List.of(taskId)));
  }
}
