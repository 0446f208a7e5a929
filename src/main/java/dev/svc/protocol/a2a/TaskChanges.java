package dev.svc.protocol.a2a;

import dev.svc.log.Log;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Keeps what the tasks this instance runs change: each status saved to the task store and pushed to
 * the task's push configs; with a shared store also each event appended, for streams on other
 * instances, and a final state that the store did not take saved again until it does ({@link
 * FinalStateSaves}). Sharing events pauses after the store failed to take one ({@link
 * StoreOutage}).
 */
final class TaskChanges implements AutoCloseable {
  private static final Log LOG = Log.tagged("a2a");

  private final TaskStore store;
  private final Optional<SharedTasks> shared;
  private final PushNotifier push;
  private final Consumer<String> endedElsewhere;
  private final FinalStateSaves finalSaves = new FinalStateSaves(this::save);
  private final StoreOutage eventsOutage = new StoreOutage(System::nanoTime);

  /**
   * @param endedElsewhere stops running a task here (by id) that another instance canceled or
   *     marked failed meanwhile
   */
  TaskChanges(TaskStore store, PushNotifier push, Consumer<String> endedElsewhere) {
    this.store = store;
    this.shared = store.shared();
    this.push = push;
    this.endedElsewhere = endedElsewhere;
  }

  /**
   * Saves the state of a task this instance runs; with a shared store also its event count and
   * lease. False when another instance had ended it meanwhile.
   */
  boolean save(TaskStore.Scope scope, Task task, long seq) {
    if (shared.isPresent()) {
      return shared.get().saveRun(scope, task, seq);
    }
    store.save(scope, task);
    return true;
  }

  /**
   * What a run does with its changes: saves each status and pushes it; with a shared store also
   * appends every event, for streams on other instances. A store that fails is logged, not thrown
   * into the run: the run goes on for its local callers; with a shared store a final state is saved
   * again until the store takes it ({@link FinalStateSaves}), its lease renewed meanwhile.
   */
  TaskRun.Changes of(TaskStore.Scope scope, String taskId) {
    return new TaskRun.Changes() {
      @Override
      public void statusChanged(Task changed, long seq) {
        try {
          if (!save(scope, changed, seq)) {
            // another instance canceled it or marked it failed: stop running it here
            endedElsewhere.accept(taskId);
            return;
          }
          push.notify(store.pushConfigs(scope, changed.id()), changed);
        } catch (TaskStoreException e) {
          boolean last = shared.isPresent() && changed.status().state().isTerminal();
          LOG.warn(
              last ? "task state not saved; trying again" : "task state not saved",
              "task",
              taskId,
              "state",
              changed.status().state().wireName(),
              "error",
              e.getMessage());
          if (last) {
            // no later change would save it: without this it was lost, and marked failed
            // once its lease expired
            finalSaves.retry(
                scope,
                changed,
                seq,
                () -> push.notify(store.pushConfigs(scope, changed.id()), changed));
          }
        }
      }

      @Override
      public void published(long seq, StreamResponse event) {
        if (shared.isEmpty() || !eventsOutage.tryNow()) {
          return; // the store failed to take one lately: skipped until its pause ends
        }
        try {
          shared.get().append(taskId, seq, event);
          eventsOutage.succeeded();
        } catch (TaskStoreException e) {
          Duration pause = eventsOutage.failed();
          LOG.warn(
              "task event not shared; events of running tasks are not shared for a while",
              "task",
              taskId,
              "seconds",
              pause.toSeconds(),
              "error",
              e.getMessage());
        }
      }
    };
  }

  @Override
  public void close() {
    finalSaves.close();
  }
}
