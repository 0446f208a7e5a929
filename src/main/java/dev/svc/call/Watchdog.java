package dev.svc.call;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Stops work that runs past its deadline (or whose calling thread was interrupted): one thread that
 * looks through the armed deadlines every tick. Arming and disarming cost no system call — a timer
 * task per call (a {@code ScheduledExecutorService}, Javet's {@code V8Guard}) wakes its thread on
 * every call, which measured as a large share of a short call. The price: a deadline fires up to
 * one tick late. The thread sleeps after a second with nothing armed.
 */
public final class Watchdog {
  private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final Set<Armed> armed = ConcurrentHashMap.newKeySet();
  private final long tickNanos;
  private final Executor firing;
  private final AtomicBoolean sleeping = new AtomicBoolean();
  private final Thread thread;

  /**
   * @param name the thread's name
   * @param tick how often armed deadlines are looked at
   * @param firing where a due action runs: {@code Runnable::run} for quick ones, another thread for
   *     actions that may block
   */
  public Watchdog(String name, Duration tick, Executor firing) {
    this.tickNanos = tick.toNanos();
    this.firing = firing;
    this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this::watch);
    thread.start();
  }

  /**
   * Arms {@code onDue} to run once {@code System.nanoTime()} passes {@code deadlineNanos}, or once
   * {@code caller} (if given) is interrupted, unless the returned handle is closed first.
   */
  public Armed arm(long deadlineNanos, Optional<Thread> caller, Runnable onDue) {
    Armed handle = new Armed(deadlineNanos, caller.orElse(null), onDue);
    armed.add(handle);
    if (sleeping.get() && sleeping.compareAndSet(true, false)) {
      LockSupport.unpark(thread);
    }
    return handle;
  }

  /** One armed deadline. */
  public final class Armed implements AutoCloseable {
    private final long deadline;
    private final Thread caller;
    private final Runnable onDue;
    private boolean done; // guarded by this
    private boolean fired; // guarded by this

    private Armed(long deadline, Thread caller, Runnable onDue) {
      this.deadline = deadline;
      this.caller = caller;
      this.onDue = onDue;
    }

    /** Whether the action ran (the deadline passed or the caller was interrupted). */
    public synchronized boolean fired() {
      return fired;
    }

    private boolean due(long now) {
      return (caller != null && caller.isInterrupted()) || now - deadline >= 0;
    }

    private synchronized void fire() {
      if (done) {
        return;
      }
      fired = true;
      onDue.run();
    }

    /** Disarms; returns once the action cannot run any more (it waits for one in progress). */
    @Override
    public void close() {
      armed.remove(this);
      synchronized (this) {
        done = true;
      }
    }
  }

  private void watch() {
    long lastBusy = System.nanoTime();
    while (true) {
      if (armed.isEmpty() && System.nanoTime() - lastBusy > IDLE_NANOS) {
        sleeping.set(true);
        if (armed.isEmpty()) {
          LockSupport.park(this); // arm() unparks; a permit given before this returns at once
        }
        sleeping.set(false);
        lastBusy = System.nanoTime();
        continue;
      }
      LockSupport.parkNanos(this, tickNanos);
      long now = System.nanoTime();
      for (Armed handle : armed) {
        lastBusy = now;
        if (handle.due(now) && armed.remove(handle)) {
          try {
            firing.execute(handle::fire);
          } catch (RuntimeException e) {
            // an action that fails must not stop the watchdog
          }
        }
      }
    }
  }
}
