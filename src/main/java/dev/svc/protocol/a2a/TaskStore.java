package dev.svc.protocol.a2a;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where tasks and their push-notification configs live. In memory by default ({@link
 * InMemoryTaskStore}); an implementation over a shared database lets several instances serve the
 * same tasks. Every method is scoped to one agent: an agent never sees another agent's tasks.
 * Implementations are thread-safe.
 */
public interface TaskStore {

  /** Saves a new task or the new state of a known one. */
  void save(String agent, Task task);

  Optional<Task> find(String agent, String taskId);

  /** Every task of a conversation, in the order they were created. */
  List<Task> context(String agent, String contextId);

  /** Tasks that match, newest status first (then by id, descending), one page at a time. */
  Page list(String agent, Query query);

  void savePushConfig(String agent, PushConfig config);

  /** The push configs of a task, in the order they were created. */
  List<PushConfig> pushConfigs(String agent, String taskId);

  /** Deletes a config; false when there was none. */
  boolean deletePushConfig(String agent, String taskId, String configId);

  /**
   * A {@code ListTasks} query.
   *
   * @param after the position of the last task of the previous page
   */
  record Query(
      Optional<String> contextId,
      Optional<TaskState> state,
      Optional<Instant> statusAfter,
      int pageSize,
      Optional<Cursor> after) {}

  /** A position in the listing order: a task's status time and id. */
  record Cursor(Instant timestamp, String taskId) {}

  /**
   * @param totalSize how many tasks match, over all pages
   * @param next where the next page starts; empty on the last page
   */
  record Page(List<Task> tasks, int totalSize, Optional<Cursor> next) {}
}
