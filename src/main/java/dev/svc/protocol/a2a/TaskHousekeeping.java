package dev.svc.protocol.a2a;

import dev.svc.log.Log;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * The housekeeping loop of a shared task store, on its own thread: renews this instance's leases
 * every third of the lease, fails expired ones every half lease, and deletes finished tasks every
 * tenth of the retention (at most every ten minutes). A failed round is logged and the next one
 * tries again; the loop ends when the store closes or the thread is interrupted.
 */
final class TaskHousekeeping {
  private static final Log LOG = Log.tagged("a2a:tasks");

  private TaskHousekeeping() {}

  /**
   * What a shared store does in the rounds.
   *
   * @param renew renews the leases of the tasks this instance runs
   * @param failExpired fails the tasks whose instance stopped renewing their lease: how many
   * @param deleteFinished deletes finished tasks past the retention: how many
   */
  record Chores(Runnable renew, IntSupplier failExpired, IntSupplier deleteFinished) {}

  /** Starts the loop on a daemon thread of its own, until the store closes. */
  static Thread start(
      SharedTasks.Settings settings, String description, BooleanSupplier closed, Chores chores) {
    return Thread.ofPlatform()
        .daemon()
        .name("svc-a2a-leases")
        .start(() -> run(settings, description, closed, chores));
  }

  private static void run(
      SharedTasks.Settings settings, String description, BooleanSupplier closed, Chores chores) {
    long renewEvery = Math.max(50, settings.lease().toMillis() / 3);
    long cleanEvery = Math.clamp(settings.retention().toMillis() / 10, 1_000, 600_000);
    long nextExpiry = 0;
    long nextClean = System.currentTimeMillis() + Math.min(cleanEvery, 60_000);
    while (!closed.getAsBoolean()) {
      try {
        Thread.sleep(renewEvery);
      } catch (InterruptedException e) {
        return;
      }
      try {
        chores.renew().run();
        long now = System.currentTimeMillis();
        if (now >= nextExpiry) {
          chores.failExpired().getAsInt();
          nextExpiry = now + settings.lease().toMillis() / 2;
        }
        if (now >= nextClean) {
          int deleted = chores.deleteFinished().getAsInt();
          if (deleted > 0) {
            LOG.info("finished tasks past their retention deleted", "tasks", deleted);
          }
          nextClean = now + cleanEvery;
        }
      } catch (RuntimeException e) {
        if (!closed.getAsBoolean()) {
          LOG.warn(
              "task leases not renewed", "store", description, "error", StoredTasks.firstLine(e));
        }
      }
    }
  }
}
