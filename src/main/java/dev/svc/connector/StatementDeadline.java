package dev.svc.connector;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Cancels a running statement at its deadline ({@link Statement#cancel()}), on top of the driver's
 * own {@code setQueryTimeout} where that exists. The cancel runs on a virtual thread, since drivers
 * cancel by opening a second connection.
 *
 * <p>{@link #close()} must run before the connection goes back to the pool: it waits for a cancel
 * in progress, so that a late cancel can never hit the next caller's statement.
 */
final class StatementDeadline implements AutoCloseable {
  private static final ScheduledThreadPoolExecutor TIMER = timer();

  private final Statement statement;
  private final ScheduledFuture<?> task;
  private boolean done; // guarded by this
  private boolean fired; // guarded by this

  private StatementDeadline(Statement statement, long nanos) {
    this.statement = statement;
    this.task =
        TIMER.schedule(
            () -> Thread.ofVirtual().name("svc-statement-cancel").start(this::fire),
            nanos,
            TimeUnit.NANOSECONDS);
  }

  /** Starts the clock: {@code statement} is cancelled in {@code nanos} unless closed before. */
  static StatementDeadline arm(Statement statement, long nanos) {
    return new StatementDeadline(statement, nanos);
  }

  /** Whether the deadline passed and the statement was cancelled. */
  synchronized boolean fired() {
    return fired;
  }

  private synchronized void fire() {
    if (done) {
      return;
    }
    fired = true;
    try {
      statement.cancel();
    } catch (SQLException | RuntimeException e) {
      // the statement may have finished or its connection broken: nothing left to cancel
    }
  }

  /** Disarms the deadline; returns once no cancel can still reach the statement. */
  @Override
  public void close() {
    task.cancel(false);
    synchronized (this) { // waits for a fire() in progress
      done = true;
    }
  }

  private static ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, "svc-statement-deadlines");
              thread.setDaemon(true);
              return thread;
            });
    timer.setRemoveOnCancelPolicy(true);
    return timer;
  }
}
