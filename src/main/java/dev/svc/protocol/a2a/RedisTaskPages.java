package dev.svc.protocol.a2a;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.UnifiedJedis;

/**
 * Several of {@link RedisTaskStore}'s tasks at once: a context's conversation and {@code ListTasks}
 * pages, their bodies read by one script that stops at {@link TaskStore#MAX_READ_BYTES}. The Redis
 * side of {@link PostgresTaskPages}.
 */
final class RedisTaskPages {
  private final UnifiedJedis redis;
  private final RedisTaskKeys keys;
  private final RedisTaskCalls calls;

  RedisTaskPages(UnifiedJedis redis, RedisTaskKeys keys, RedisTaskCalls calls) {
    this.redis = redis;
    this.keys = keys;
    this.calls = calls;
  }

  /**
   * The tasks of {@code ids}, in that order, up to {@link TaskStore#MAX_READ_BYTES} (the first
   * always).
   */
  private List<Task> bodies(List<String> ids) {
    return read(ids).tasks();
  }

  /**
   * What a budgeted read gave: the tasks found, and how many of the ids it got to (a task that is
   * gone counts, and is not in {@code tasks}).
   */
  private record Read(List<Task> tasks, int consumed) {}

  private Read read(List<String> ids) {
    if (ids.isEmpty()) {
      return new Read(List.of(), 0);
    }
    List<String> args = new ArrayList<>(ids.size() + 1);
    args.add(Long.toString(TaskStore.MAX_READ_BYTES));
    args.addAll(ids);
    Object reply =
        calls.call(
            "read tasks",
            () -> redis.eval(RedisTaskScripts.BODIES, List.of(keys.taskPrefix()), args));
    List<Task> tasks = new ArrayList<>();
    List<?> bodies = (List<?>) reply;
    for (Object body : bodies) {
      String text = String.valueOf(body);
      if (!text.isEmpty()) {
        tasks.add(StoredTasks.task(text));
      }
    }
    return new Read(tasks, bodies.size());
  }

  List<Task> context(TaskStore.Scope scope, String contextId) {
    List<String> ids =
        calls.call(
            "read context " + contextId,
            () -> redis.lrange(RedisTaskKeys.context(keys.scope(scope), contextId), 0, -1));
    // the latest that fit the budget, oldest first
    List<Task> latest = new ArrayList<>(bodies(ids.reversed()));
    return latest.reversed();
  }

  /**
   * One page of the scope's tasks: a script filters and pages the ids in Redis (only the page's ids
   * and two counts come back), then the page's tasks are read within the read budget.
   */
  TaskStore.Page list(TaskStore.Scope scope, TaskStore.Query query) {
    List<String> args =
        List.of(
            keys.taskPrefix(),
            query.contextId().orElse(""),
            query.state().map(Enum::name).orElse(""),
            query.statusAfter().map(t -> Long.toString(t.toEpochMilli())).orElse(""),
            query.after().map(c -> Long.toString(c.timestamp().toEpochMilli())).orElse(""),
            query.after().map(TaskStore.Cursor::taskId).orElse(""),
            Integer.toString(query.pageSize()));
    Object reply =
        calls.call(
            "list tasks",
            () -> redis.eval(RedisTaskScripts.PAGE, List.of(keys.scope(scope)), args));
    List<?> flat = (List<?>) reply;
    int total = Math.toIntExact((Long) flat.get(0));
    long fromCursor = (Long) flat.get(1);
    List<String> ids = new ArrayList<>(flat.size() - 2);
    for (int i = 2; i < flat.size(); i++) {
      ids.add(String.valueOf(flat.get(i)));
    }
    Read read = read(ids);
    List<Task> page = read.tasks();
    Optional<TaskStore.Cursor> next =
        read.consumed() < fromCursor && !page.isEmpty()
            ? Optional.of(
                new TaskStore.Cursor(page.getLast().status().timestamp(), page.getLast().id()))
            : Optional.empty();
    return new TaskStore.Page(page, total, next);
  }
}
