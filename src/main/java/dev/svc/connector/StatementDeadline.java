package dev.svc.connector;

import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Cancels a running statement at its deadline, and as soon as the calling thread is interrupted (a
 * call the client cancelled): SQLite does not notice interrupts at all, and network drivers only by
 * losing their socket. It replaces the drivers' {@code setQueryTimeout}, which PostgreSQL's and
 * MySQL's drivers implement with a timer of their own.
 *
 * <p>Arming costs no system call: armed deadlines sit in a set that one watchdog thread looks
 * through every {@value #TICK_MILLIS} ms. (A timer task per statement woke the timer thread for
 * every statement: measured, that was more than a third of a one-row SQLite call.) A deadline thus
 * fires up to {@value #TICK_MILLIS} ms late. The watchdog sleeps when nothing has been armed for a
 * second. The cancel runs on a virtual thread, since drivers cancel by opening a second connection.
 *
 * <p>{@link #close()} must run before the connection goes back to the pool: it waits for a cancel
 * in progress, so that a late cancel can never hit the next caller's statement.
 */
final class StatementDeadline implements AutoCloseable {
  static final long TICK_MILLIS = 20;
  private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
  private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

  private static final Set<StatementDeadline> ARMED = ConcurrentHashMap.newKeySet();
  private static final Watchdog WATCHDOG = new Watchdog();

  /** How to cancel the statement: {@link java.sql.Statement#cancel()}. */
  @FunctionalInterface
  interface Cancel {
    void cancel() throws SQLException;
  }

  private final Cancel cancel;
  private final Thread caller;
  private final long deadline;
  private boolean done; // guarded by this
  private boolean fired; // guarded by this

  private StatementDeadline(Cancel cancel, long nanos) {
    this.cancel = cancel;
    this.caller = Thread.currentThread();
    this.deadline = System.nanoTime() + nanos;
  }

  /**
   * Starts the clock: the statement is cancelled in {@code nanos}, or when the calling thread is
   * interrupted, unless closed before.
   */
  static StatementDeadline arm(Cancel cancel, long nanos) {
    StatementDeadline armed = new StatementDeadline(cancel, nanos);
    ARMED.add(armed);
    WATCHDOG.wake();
    return armed;
  }

  /** Whether the statement was cancelled (its deadline passed or its caller was interrupted). */
  synchronized boolean fired() {
    return fired;
  }

  private boolean due(long now) {
    return caller.isInterrupted() || now - deadline >= 0;
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
  public void close() {
    ARMED.remove(this);
    synchronized (this) { // waits for a fire() in progress
      done = true;
    }
  }

  /** The one thread that looks at armed deadlines. */
  private static final class Watchdog implements Runnable {
    private final AtomicBoolean sleeping = new AtomicBoolean();
    private final Thread thread;

    Watchdog() {
      thread = Thread.ofPlatform().daemon().name("svc-statement-deadlines").unstarted(this);
      thread.start();
    }

    /** Cheap unless the watchdog sleeps (nothing armed for a second). */
    void wake() {
      if (sleeping.get() && sleeping.compareAndSet(true, false)) {
        LockSupport.unpark(thread);
      }
    }

    @Override
    public void run() {
      long lastBusy = System.nanoTime();
      while (true) {
        if (ARMED.isEmpty() && System.nanoTime() - lastBusy > IDLE_NANOS) {
          sleeping.set(true);
          if (ARMED.isEmpty()) {
            LockSupport.park(this); // wake() unparks; a permit given before this returns at once
          }
          sleeping.set(false);
          lastBusy = System.nanoTime();
          continue;
        }
        LockSupport.parkNanos(this, TICK_NANOS);
        long now = System.nanoTime();
        for (StatementDeadline armed : ARMED) {
          lastBusy = now;
          if (armed.due(now) && ARMED.remove(armed)) {
            Thread.ofVirtual().name("svc-statement-cancel").start(armed::fire);
          }
        }
      }
    }
  }
}
