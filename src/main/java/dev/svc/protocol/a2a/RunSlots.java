package dev.svc.protocol.a2a;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many tasks this instance runs at once, and how many more may wait for a turn: each running
 * task holds a model call, its connection and its buffers (a client starting tasks in a loop
 * against a slow model held 14,000 connections and 640 MB within 25 s before this bound), and a
 * waiting one only a parked virtual thread. Turns are given in arrival order.
 */
final class RunSlots {
  /**
   * @param running tasks run at once ({@code agents.tasks.max_running})
   * @param waiting tasks that may wait, submitted, for a turn ({@code agents.tasks.max_waiting})
   */
  record Limits(int running, int waiting) {
    static final Limits DEFAULTS = new Limits(256, 1024);

    Limits {
      if (running < 1 || waiting < 0) {
        throw new IllegalArgumentException("at least one running task and no negative wait");
      }
    }
  }

  private final Limits limits;
  private final Semaphore turns;
  private final AtomicInteger admitted = new AtomicInteger();

  RunSlots(Limits limits) {
    this.limits = limits;
    this.turns = new Semaphore(limits.running(), true);
  }

  Limits limits() {
    return limits;
  }

  /**
   * Admits a new task: false, and nothing taken, when as many tasks as run and wait at most are
   * already admitted. An admitted task ends with {@link #leave}, whether it ran or not.
   */
  boolean admit() {
    if (admitted.incrementAndGet() > limits.running() + limits.waiting()) {
      admitted.decrementAndGet();
      return false;
    }
    return true;
  }

  /** Waits for a turn to run; each turn taken is given back with {@link #endTurn}. */
  void awaitTurn() throws InterruptedException {
    turns.acquire();
  }

  void endTurn() {
    turns.release();
  }

  /** An admitted task has ended (or never started). */
  void leave() {
    admitted.decrementAndGet();
  }

  /** Tasks admitted and not yet running. */
  int waiting() {
    return Math.max(0, admitted.get() - (limits.running() - turns.availablePermits()));
  }

  /** Tasks running now. */
  int running() {
    return limits.running() - turns.availablePermits();
  }
}
