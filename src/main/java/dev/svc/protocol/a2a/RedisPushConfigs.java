package dev.svc.protocol.a2a;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * The push notification configs of {@link RedisTaskStore}'s tasks: each belongs to a task, and is
 * read, written and deleted only in the task's scope (its agent and principal), checked in the same
 * script; in the order they were made. The Redis side of {@link PostgresPushConfigs}.
 */
final class RedisPushConfigs {
  private final UnifiedJedis redis;
  private final RedisTaskKeys keys;
  private final RedisTaskCalls calls;

  RedisPushConfigs(UnifiedJedis redis, RedisTaskKeys keys, RedisTaskCalls calls) {
    this.redis = redis;
    this.keys = keys;
    this.calls = calls;
  }

  void save(TaskStore.Scope scope, PushConfig config) {
    calls.call(
        "save a push config of task " + config.taskId(),
        () ->
            redis.eval(
                RedisTaskScripts.SAVE_PUSH,
                List.of(
                    keys.task(config.taskId()),
                    keys.push(config.taskId()),
                    keys.pushOrder(config.taskId())),
                List.of(
                    scope.agent(),
                    scope.principal().id(),
                    config.id(),
                    StoredTasks.json(config.toJson()))));
  }

  List<PushConfig> of(TaskStore.Scope scope, String taskId) {
    Object reply =
        calls.call(
            "read the push configs of task " + taskId,
            () ->
                redis.eval(
                    RedisTaskScripts.PUSH_CONFIGS,
                    List.of(keys.task(taskId), keys.push(taskId), keys.pushOrder(taskId)),
                    List.of(scope.agent(), scope.principal().id())));
    List<PushConfig> configs = new ArrayList<>();
    for (Object json : (List<?>) reply) {
      configs.add(
          PushConfig.fromJson(StoredTasks.parse(String.valueOf(json)), "stored push config"));
    }
    return configs;
  }

  boolean delete(TaskStore.Scope scope, String taskId, String configId) {
    Object reply =
        calls.call(
            "delete a push config of task " + taskId,
            () ->
                redis.eval(
                    RedisTaskScripts.DELETE_PUSH,
                    List.of(keys.task(taskId), keys.push(taskId), keys.pushOrder(taskId)),
                    List.of(scope.agent(), scope.principal().id(), configId)));
    return Long.valueOf(1).equals(reply);
  }
}
