package dev.svc.protocol.a2a;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.node.ObjectNode;

/**
 * The event history of {@link RedisTaskStore}'s tasks: a list per task, each entry the event's JSON
 * after a flag for a terminal one, appended with a message on the store's channel in the same
 * script. The Redis side of {@link PostgresTaskEvents}.
 */
final class RedisTaskEvents {
  /** Events read at once, at most. */
  private static final int MAX_EVENTS = 1_000;

  private final UnifiedJedis redis;
  private final RedisTaskKeys keys;
  private final RedisTaskCalls calls;

  RedisTaskEvents(UnifiedJedis redis, RedisTaskKeys keys, RedisTaskCalls calls) {
    this.redis = redis;
    this.keys = keys;
    this.calls = calls;
  }

  /**
   * Appends the event; its number is its place in the task's list, which matches the run's own
   * numbering while only the running instance appends.
   */
  void append(String taskId, StreamResponse event) {
    boolean terminal =
        event instanceof StreamResponse.StatusUpdate update && update.status().state().isTerminal();
    String entry = (terminal ? "1" : "0") + StoredTasks.json(event.toJson());
    calls.call(
        "append an event of task " + taskId,
        () ->
            redis.eval(
                RedisTaskScripts.APPEND,
                List.of(keys.events(taskId)),
                List.of(entry, keys.channel(), TaskSignals.changed(taskId))));
  }

  List<SharedTasks.Event> after(String taskId, long after) {
    List<String> entries =
        calls.call(
            "read the events of task " + taskId,
            () -> redis.lrange(keys.events(taskId), after, after + MAX_EVENTS - 1));
    List<SharedTasks.Event> events = new ArrayList<>();
    long seq = after;
    for (String entry : entries) {
      seq++;
      events.add(
          new SharedTasks.Event(
              seq, (ObjectNode) StoredTasks.parse(entry.substring(1)), entry.charAt(0) == '1'));
    }
    return events;
  }
}
