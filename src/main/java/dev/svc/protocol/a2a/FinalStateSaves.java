package dev.svc.protocol.a2a;

import dev.svc.log.Log;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The final states of tasks that a shared store could not save when the run ended (the database
 * down or out of reach at that moment), saved again until it takes them: a task that completed
 * while its store was away must not be lost, nor marked failed once its lease expires. The store
 * keeps such a task's lease renewed meanwhile (it stays owned by this instance), so no other
 * instance takes it for one whose instance died, as long as this one reaches the store within a
 * lease.
 *
 * <p>Tries again after 1 s, then twice as long each time up to 30 s, for as long as the process
 * runs; at most {@link #MAX_WAITING} wait at once (past it the oldest is given up, logged).
 */
final class FinalStateSaves implements AutoCloseable {
  private static final Log LOG = Log.tagged("a2a");

  /** The most final states waiting to be saved at once. */
  static final int MAX_WAITING = 10_000;

  static final Duration FIRST_WAIT = Duration.ofSeconds(1);
  static final Duration LONGEST_WAIT = Duration.ofSeconds(30);

  /** Saves a final state: true when saved, false when the store already holds a final one. */
  @FunctionalInterface
  interface Save {
    boolean save(TaskStore.Scope scope, Task task, long seq);
  }

  private final Save save;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("svc-a2a-final-saves").factory());
  private final ConcurrentHashMap<String, Boolean> waiting = new ConcurrentHashMap<>();

  FinalStateSaves(Save save) {
    this.save = save;
  }

  /**
   * Saves {@code task} again later, and runs {@code saved} once the store has taken it (not when
   * the store already held a final state of it, set by another instance).
   */
  void retry(TaskStore.Scope scope, Task task, long seq, Runnable saved) {
    if (waiting.size() >= MAX_WAITING) {
      LOG.error(
          "task state lost: too many final states wait to be saved",
          "task",
          task.id(),
          "waiting",
          waiting.size());
      return;
    }
    waiting.put(task.id(), Boolean.TRUE);
    schedule(scope, task, seq, saved, FIRST_WAIT);
  }

  /** How many final states wait to be saved. */
  int waiting() {
    return waiting.size();
  }

  private void schedule(TaskStore.Scope scope, Task task, long seq, Runnable saved, Duration wait) {
    try {
      timer.schedule(
          () -> attempt(scope, task, seq, saved, wait), wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      waiting.remove(task.id()); // closing
    }
  }

  private void attempt(TaskStore.Scope scope, Task task, long seq, Runnable saved, Duration wait) {
    try {
      boolean taken = save.save(scope, task, seq);
      waiting.remove(task.id());
      LOG.info(
          taken ? "task state saved after a retry" : "task state not saved: already final",
          "task",
          task.id(),
          "state",
          task.status().state().wireName());
      if (taken) {
        saved.run();
      }
    } catch (TaskStoreException e) {
      Duration next = wait.multipliedBy(2);
      schedule(scope, task, seq, saved, next.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : next);
    } catch (RuntimeException e) {
      waiting.remove(task.id());
      LOG.error("task state not saved", e, "task", task.id());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    if (!waiting.isEmpty()) {
      LOG.warn("task states not saved before the stop", "tasks", waiting.size());
    }
  }
}
