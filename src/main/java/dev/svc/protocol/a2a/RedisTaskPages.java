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
   * Reads the scope's ids with their context, state and status time (one script), filters and pages
   * them here, then reads the page's tasks.
   */
  TaskStore.Page list(TaskStore.Scope scope, TaskStore.Query query) {
    Object reply =
        calls.call(
            "list tasks",
            () ->
                redis.eval(
                    RedisTaskScripts.FIELDS,
                    List.of(keys.scope(scope)),
                    List.of(keys.taskPrefix())));
    List<?> flat = (List<?>) reply;
    List<String> matching = new ArrayList<>();
    List<Long> times = new ArrayList<>();
    for (int i = 0; i + 3 < flat.size(); i += 4) {
      String id = String.valueOf(flat.get(i));
      String context = String.valueOf(flat.get(i + 1));
      String state = String.valueOf(flat.get(i + 2));
      long statusMs = Long.parseLong(String.valueOf(flat.get(i + 3)));
      if (query.contextId().isPresent() && !query.contextId().get().equals(context)) {
        continue;
      }
      if (query.state().isPresent() && !query.state().get().name().equals(state)) {
        continue;
      }
      if (query.statusAfter().isPresent() && statusMs <= query.statusAfter().get().toEpochMilli()) {
        continue;
      }
      matching.add(id);
      times.add(statusMs);
    }
    int total = matching.size();
    int start = 0;
    if (query.after().isPresent()) {
      TaskStore.Cursor cursor = query.after().get();
      long at = cursor.timestamp().toEpochMilli();
      while (start < matching.size()
          && !(times.get(start) < at
              || (times.get(start) == at && matching.get(start).compareTo(cursor.taskId()) < 0))) {
        start++;
      }
    }
    int end = Math.min(matching.size(), start + query.pageSize());
    Read read = read(matching.subList(start, end));
    List<Task> page = read.tasks();
    Optional<TaskStore.Cursor> next =
        start + read.consumed() < matching.size() && !page.isEmpty()
            ? Optional.of(
                new TaskStore.Cursor(page.getLast().status().timestamp(), page.getLast().id()))
            : Optional.empty();
    return new TaskStore.Page(page, total, next);
  }
}
