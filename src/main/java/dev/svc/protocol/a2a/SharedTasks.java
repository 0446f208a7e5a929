package dev.svc.protocol.a2a;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * The part of a {@link TaskStore} that several instances share ({@link PostgresTaskStore}, {@link
 * RedisTaskStore}): a task's events, so a stream on one instance follows a task another runs;
 * cancel requests, sent to whichever instance runs the task; and leases, so a task whose instance
 * died is marked failed instead of staying {@code WORKING}.
 *
 * <p>Events are numbered per task from 1, in the order the running instance made them; a stored
 * task remembers how many events it had when it was saved ({@link Snapshot#seq}), so a stream
 * started elsewhere shows the task as saved, then every later event, none twice.
 *
 * <p>Leases: the instance running a task holds it for {@link Settings#lease} and renews every third
 * of it; any instance marks failed a task whose lease has passed. The store runs both, and the
 * deletion of tasks finished longer than {@link Settings#retention} ago, on its own thread.
 */
public interface SharedTasks {

  /**
   * @param lease how long a task stays owned by its instance without a renewal
   * @param retention how long finished tasks (and their events and push configs) are kept
   */
  record Settings(Duration lease, Duration retention) {
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
    public static final Duration DEFAULT_RETENTION = Duration.ofHours(24);
    public static final Settings DEFAULTS = new Settings(DEFAULT_LEASE, DEFAULT_RETENTION);
  }

  /** The id this process holds leases under (random, one per store). */
  String instance();

  /**
   * Saves the state of a task this instance runs and holds its lease (released once the task has
   * ended).
   *
   * @param seq how many events the task has had
   * @return false when the stored task had already ended (another instance canceled it or marked it
   *     failed): it stays as it was
   */
  boolean saveRun(TaskStore.Scope scope, Task task, long seq);

  /**
   * A stored task with its event count.
   *
   * @param leased whether an instance holds a lease on it that has not expired
   */
  record Snapshot(Task task, long seq, boolean leased) {}

  Optional<Snapshot> snapshot(TaskStore.Scope scope, String taskId);

  /**
   * Appends event number {@code seq} of a task this instance runs and wakes every instance's
   * listeners of the task.
   */
  void append(String taskId, long seq, StreamResponse event);

  /** One stored event, as sent on a stream. */
  record Event(long seq, ObjectNode json, boolean terminal) {}

  /** The task's events numbered after {@code after}, in order (at most a thousand at once). */
  List<Event> events(String taskId, long after);

  /**
   * Calls {@code changed} whenever the task has new events, and after the connection that listens
   * was restored (events may have come meanwhile). It runs on the listening thread: it must return
   * quickly.
   */
  Listening listen(String taskId, Runnable changed);

  /**
   * Waits until the task ends, whichever instance runs it (an expired lease ends it too).
   *
   * @return the ended task; empty when it is gone (not in the scope, deleted)
   */
  default Optional<Task> awaitEnd(TaskStore.Scope scope, String taskId)
      throws InterruptedException {
    BlockingQueue<Boolean> changed = new LinkedBlockingQueue<>();
    Listening listening = listen(taskId, () -> changed.offer(true));
    try {
      while (true) {
        Optional<Snapshot> now = snapshot(scope, taskId);
        if (now.isEmpty() || now.get().task().status().state().isTerminal()) {
          return now.map(Snapshot::task);
        }
        // a wake-up may be missed while the listening connection is restored: look again anyway
        changed.poll(1, TimeUnit.SECONDS);
      }
    } finally {
      listening.close();
    }
  }

  /** Stops a {@link #listen}. */
  interface Listening extends AutoCloseable {
    @Override
    void close();
  }

  /** Asks every instance to cancel the task if it runs it. */
  void requestCancel(String taskId);

  /** What this instance does with a cancel request: one handler, given the task id. */
  void onCancelRequest(Consumer<String> handler);

  /**
   * Ends a task no instance runs any more, appending its terminal status as its last event.
   *
   * @param onlyUnleased only when no instance holds a live lease on it
   * @return the ended task; empty when it had already ended, is not in the scope, or is leased
   */
  Optional<Task> end(TaskStore.Scope scope, String taskId, TaskStatus status, boolean onlyUnleased);

  /** Marks failed every task whose lease has expired; how many it marked. */
  int failExpired();

  /** Deletes the tasks finished more than the retention ago; how many it deleted. */
  int deleteFinished();

  /** The status a task gets when its instance stopped renewing its lease. */
  static String expiredMessage() {
    return "the server instance running this task stopped before it finished (its lease expired)";
  }
}
