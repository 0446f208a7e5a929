package dev.svc.script;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many isolates one pool may have: at most {@code shortCalls} that are idle or run short calls
 * (the isolates of {@linkplain RunningCalls#LONG_CALL long calls} and of calls waiting for a fetch
 * do not count, so a call arriving while such calls hold every isolate gets a new one), and all of
 * them within the process's memory ceiling. Counts the pool's isolates alive or being made.
 */
final class IsolateLimits {
  private final int shortCalls;
  private final ScriptMemory memory;
  private final RunningCalls running;
  private final AtomicInteger isolates = new AtomicInteger();

  IsolateLimits(int shortCalls, ScriptMemory memory, RunningCalls running) {
    this.shortCalls = shortCalls;
    this.memory = memory;
    this.running = running;
  }

  /** Counts one more isolate, unless a limit is reached. */
  boolean tryReserve() {
    while (true) {
      int n = isolates.get();
      if (n >= shortCalls && n - running.uncounted() >= shortCalls) {
        return false;
      }
      if (isolates.compareAndSet(n, n + 1)) {
        if (memory.tryReserve()) {
          return true;
        }
        isolates.decrementAndGet();
        return false;
      }
    }
  }

  /** An isolate counted by {@link #tryReserve()} is closed (or was never made). */
  void release() {
    isolates.decrementAndGet();
    memory.release();
  }

  /** The isolates alive or being made. */
  int count() {
    return isolates.get();
  }

  /** Whether {@link #tryReserve()} would find room now. */
  boolean hasRoom() {
    int n = isolates.get();
    return (n < shortCalls || n - running.uncounted() < shortCalls) && !memory.isFull();
  }

  /**
   * Whether more isolates are idle or run short calls than the limit: extra ones, made while long
   * calls held the others, which stop once their call ends.
   */
  boolean beyondShortCalls() {
    return isolates.get() - running.uncounted() > shortCalls;
  }

  /** Why a call found no isolate until its deadline, in the words of its error. */
  String whyNoRoom() {
    if (memory.isFull()) {
      int n = memory.maxIsolates();
      return "the script sandbox is at its memory ceiling ("
          + memory.limitMb()
          + " MiB, "
          + (n == 1 ? "1 isolate" : n + " isolates")
          + "), all busy with other calls";
    }
    return "every script isolate was busy with other calls";
  }
}
