package dev.svc.connector;

import java.sql.SQLException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Cancels a running statement at its deadline, on top of the driver's own {@code setQueryTimeout}
 * where that exists, and as soon as the calling thread is interrupted (a call the client
 * cancelled): SQLite does not notice interrupts at all. (Network drivers do: the interrupt closes
 * the caller's socket, and {@link JdbcConnector} then stops the abandoned statement at the server.)
 *
 * <p>A statement shorter than {@value #TICK_MILLIS} ms costs one scheduled task; longer ones are
 * looked at every {@value #TICK_MILLIS} ms. The cancel runs on a virtual thread, since drivers
 * cancel by opening a second connection.
 *
 * <p>{@link #close()} must run before the connection goes back to the pool: it waits for a cancel
 * in progress, so that a late cancel can never hit the next caller's statement.
 */
final class StatementDeadline implements AutoCloseable {
  static final long TICK_MILLIS = 100;
  private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
  private static final ScheduledThreadPoolExecutor TIMER = timer();

  /** How to cancel the statement: {@link java.sql.Statement#cancel()}. */
  @FunctionalInterface
  interface Cancel {
    void cancel() throws SQLException;
  }

  private final Cancel cancel;
  private final Thread caller;
  private final long deadline;
  private ScheduledFuture<?> task; // guarded by this
  private boolean done; // guarded by this
  private boolean fired; // guarded by this

  private StatementDeadline(Cancel cancel, long nanos) {
    this.cancel = cancel;
    this.caller = Thread.currentThread();
    this.deadline = System.nanoTime() + nanos;
    schedule();
  }

  /**
   * Starts the clock: the statement is cancelled in {@code nanos}, or when the calling thread is
   * interrupted, unless closed before.
   */
  static StatementDeadline arm(Cancel cancel, long nanos) {
    return new StatementDeadline(cancel, nanos);
  }

  /** Whether the statement was cancelled (its deadline passed or its caller was interrupted). */
  synchronized boolean fired() {
    return fired;
  }

  private synchronized void schedule() {
    if (!done) {
      long wait = Math.min(TICK_NANOS, deadline - System.nanoTime());
      task = TIMER.schedule(this::tick, Math.max(0, wait), TimeUnit.NANOSECONDS);
    }
  }

  private void tick() {
    if (caller.isInterrupted() || System.nanoTime() - deadline >= 0) {
      Thread.ofVirtual().name("svc-statement-cancel").start(this::fire);
    } else {
      schedule();
    }
  }

  private synchronized void fire() {
    if (done) {
      return;
    }
    fired = true;
    try {
      cancel.cancel();
    } catch (SQLException | RuntimeException e) {
      // the statement may have finished or its connection broken: nothing left to cancel
    }
  }

  /** Disarms the deadline; returns once no cancel can still reach the statement. */
  @Override
  public synchronized void close() { // waits for a fire() in progress
    done = true;
    task.cancel(false);
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
