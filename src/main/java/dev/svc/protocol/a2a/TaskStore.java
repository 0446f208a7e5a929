package dev.svc.protocol.a2a;

import dev.svc.auth.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where tasks and their push-notification configs live. In memory by default ({@link
 * InMemoryTaskStore}); an implementation over a shared database lets several instances serve the
 * same tasks. Every method is scoped to one agent and one principal ({@link Scope}): an agent never
 * sees another agent's tasks, and a caller never sees another principal's. A task outside the scope
 * is absent, exactly like one that never existed. Implementations are thread-safe; a shared store
 * that cannot be reached throws {@link TaskStoreException}.
 */
public interface TaskStore extends AutoCloseable {

  /**
   * Whose tasks a call sees: one agent's, started by one principal.
   *
   * @param principal the owner; stores keep its id, which holds no secret
   */
  record Scope(String agent, Principal principal) {}

  /**
   * The most bytes of stored tasks one read of several takes ({@link #list} and {@link #context}):
   * a page or a conversation of tasks that each hold a 4 MiB message ends there (at least one task
   * is always read), so a call cannot make a store load hundreds of megabytes at once.
   */
  long MAX_READ_BYTES = 4L * 1024 * 1024;

  /** Saves a new task or the new state of a known one. */
  void save(Scope scope, Task task);

  Optional<Task> find(Scope scope, String taskId);

  /**
   * The tasks of a conversation, in the order they were created: every one, or, when they hold more
   * than {@link #MAX_READ_BYTES}, the latest that fit.
   */
  List<Task> context(Scope scope, String contextId);

  /**
   * Tasks that match, newest status first (then by id, descending), one page at a time: at most
   * {@code pageSize}, and fewer (at least one) when a store that reads them from a database would
   * read more than {@link #MAX_READ_BYTES}; {@code next} then goes on from the last one read.
   */
  Page list(Scope scope, Query query);

  /**
   * Claims a user message's {@code messageId} for the task it is about to start, atomically (across
   * instances for a shared store): of two sends with the same id in one scope, one wins and the
   * other learns which task won. A claim lasts while its task is kept (at most the retention for a
   * shared store); a claim whose task was never saved is released ({@link #releaseMessage}).
   *
   * @return empty when this call claimed it; else the id of the task that claimed it first
   * @see MessageClaims
   */
  Optional<String> claimMessage(Scope scope, String messageId, String taskId);

  /** Gives up a claim whose task was not saved; nothing when {@code taskId} does not hold it. */
  void releaseMessage(Scope scope, String messageId, String taskId);

  void savePushConfig(Scope scope, PushConfig config);

  /** The push configs of a task, in the order they were created. */
  List<PushConfig> pushConfigs(Scope scope, String taskId);

  /** Deletes a config; false when there was none. */
  boolean deletePushConfig(Scope scope, String taskId, String configId);

  /** The shared part of a store several instances use; empty for a store of this process only. */
  default Optional<SharedTasks> shared() {
    return Optional.empty();
  }

  /** Releases the store's connections and threads. */
  @Override
  default void close() {}

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
