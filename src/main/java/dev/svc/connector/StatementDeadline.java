package dev.svc.connector;

import dev.svc.call.Deadline;
import dev.svc.call.Watchdog;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * Cancels a running statement at its deadline, and as soon as the calling thread is interrupted (a
 * call the client cancelled): SQLite does not notice interrupts at all, and network drivers only by
 * losing their socket. It replaces the drivers' {@code setQueryTimeout}, which PostgreSQL's and
 * MySQL's drivers implement with a timer of their own per statement.
 *
 * <p>Deadlines are kept by a {@link Watchdog} (arming costs no system call; a timer task per
 * statement woke the timer thread for every statement, measured as more than a third of a one-row
 * SQLite call), so a deadline fires up to {@value #TICK_MILLIS} ms late. The cancel runs on a
 * virtual thread, since drivers cancel by opening a second connection.
 *
 * <p>{@link #close()} must run before the connection goes back to the pool: it waits for a cancel
 * in progress, so that a late cancel can never hit the next caller's statement.
 */
final class StatementDeadline implements AutoCloseable {
  static final long TICK_MILLIS = 20;

  private static final Watchdog WATCHDOG =
      new Watchdog(
          "svc-statement-deadlines",
          Duration.ofMillis(TICK_MILLIS),
          action -> Thread.ofVirtual().name("svc-statement-cancel").start(action));

  /** How to cancel the statement: {@link java.sql.Statement#cancel()}. */
  @FunctionalInterface
  interface Cancel {
    void cancel() throws SQLException;
  }

  private final Watchdog.Armed armed;

  private StatementDeadline(Cancel cancel, Deadline deadline) {
    this.armed =
        WATCHDOG.arm(
            deadline.nanos(),
            Optional.of(Thread.currentThread()),
            () -> {
              try {
                cancel.cancel();
              } catch (SQLException | RuntimeException e) {
                // the statement may have finished or its connection broken: nothing to cancel
              }
            });
  }

  /**
   * Watches the statement: it is cancelled at the call's deadline, or when the calling thread is
   * interrupted, unless closed before.
   */
  static StatementDeadline arm(Cancel cancel, Deadline deadline) {
    return new StatementDeadline(cancel, deadline);
  }

  /** Whether the statement was cancelled (its deadline passed or its caller was interrupted). */
  boolean fired() {
    return armed.fired();
  }

  /** Disarms the deadline; returns once no cancel can still reach the statement. */
  @Override
  public void close() {
    armed.close();
  }
}
