package dev.svc.protocol.a2a;

import dev.svc.log.Log;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Cancels the tasks still running when the instance stops, each on a thread of its own, and waits
 * for them within a limit. Canceling saves the canceled state and shares its event in the task
 * store; before, they were canceled one after the other on the stopping thread, so a store that
 * stopped answering held the stop for its time-outs (10 s to save, 10 s to share) per task: 24 s
 * after a drain limit of 4 s with one task, a minute with three.
 */
final class StopCancels {
  private static final Log LOG = Log.tagged("a2a");

  private StopCancels() {}

  /** Cancels {@code runs}; returns how many cancellations had not ended after {@code limit}. */
  static int cancelAll(Collection<TaskRun> runs, Duration limit) {
    List<Thread> cancels = new ArrayList<>();
    for (TaskRun run : runs) {
      cancels.add(Thread.ofVirtual().name("svc-task-cancel").start(run::cancel));
    }
    long end = System.nanoTime() + limit.toNanos();
    int left = 0;
    for (Thread cancel : cancels) {
      try {
        long wait = Math.max(0, end - System.nanoTime());
        if (!cancel.join(Duration.ofNanos(wait))) {
          left++;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        left++;
      }
    }
    if (left > 0) {
      LOG.warn(
          "task cancellations not saved before the stop: the task store did not answer in time",
          "tasks",
          left,
          "waited_s",
          limit.toSeconds());
    }
    return left;
  }
}
