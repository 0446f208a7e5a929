package dev.svc.script;

import dev.svc.model.ScriptRef;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The calls running on a pool's isolates, on workers and on callers' threads, and how long each has
 * run: the pool sizes itself by them. A call that has run longer than {@link #LONG_CALL} (a heavy
 * computation, a slow fetch, an endless loop on its way to its deadline) is a <i>long call</i>: it
 * no longer holds one of the cores the pool shares out, nor a place among the isolates kept for
 * short calls.
 *
 * <p>It also remembers which scripts ended within {@link #LONG_CALL} the last time they ran: only
 * those run on their callers' threads, where a call that turns out long holds one of the few
 * carrier threads until it ends. A script's first call, and the calls of a script whose last call
 * ran long (an endless loop that reached its deadline), go to a worker.
 */
final class RunningCalls {
  /** A call running longer than this is a long call. */
  static final Duration LONG_CALL = Duration.ofMillis(50);

  private static final long LONG_NANOS = LONG_CALL.toNanos();

  private final Set<Run> runs = ConcurrentHashMap.newKeySet();
  private final LongSupplier clock;

  RunningCalls() {
    this(System::nanoTime);
  }

  /**
   * @param clock nanoseconds, as {@link System#nanoTime()} (tests give their own)
   */
  RunningCalls(LongSupplier clock) {
    this.clock = clock;
  }

  private final Set<ScriptRef> quick = ConcurrentHashMap.newKeySet();

  /** One call on its isolate, from its start to its end. */
  static final class Run implements CallHost.WaitListener {
    private final long since;
    private final ScriptRef script;
    private final boolean onWorker;
    private volatile boolean waiting;

    private Run(ScriptRef script, boolean onWorker, long since) {
      this.since = since;
      this.script = script;
      this.onWorker = onWorker;
    }

    /** Whether the call waits for a fetch (and uses no CPU). */
    @Override
    public void waiting(boolean now) {
      waiting = now;
    }

    boolean isLong(long now) {
      return now - since >= LONG_NANOS;
    }
  }

  /** A call of {@code script} starts on a worker ({@code onWorker}) or on its caller's thread. */
  Run start(ScriptRef script, boolean onWorker) {
    Run run = new Run(script, onWorker, clock.getAsLong());
    runs.add(run);
    return run;
  }

  void end(Run run) {
    runs.remove(run);
    if (run.isLong(clock.getAsLong())) {
      quick.remove(run.script);
    } else {
      quick.add(run.script);
    }
  }

  /** Whether the last call of {@code script} ended within {@link #LONG_CALL}. */
  boolean endedQuickly(ScriptRef script) {
    return quick.contains(script);
  }

  /** Calls running longer than {@link #LONG_CALL}. */
  int longCalls() {
    long now = clock.getAsLong();
    int n = 0;
    for (Run run : runs) {
      if (run.isLong(now)) {
        n++;
      }
    }
    return n;
  }

  /**
   * Calls whose isolates the limit of short or idle isolates does not count: those running long,
   * and those waiting for a fetch (they use no CPU, and the next call should not wait for them).
   */
  int uncounted() {
    long now = clock.getAsLong();
    int n = 0;
    for (Run run : runs) {
      if (run.waiting || run.isLong(now)) {
        n++;
      }
    }
    return n;
  }

  /** Calls on workers that started recently and are not waiting for a fetch. */
  int computingOnWorkers() {
    long now = clock.getAsLong();
    int n = 0;
    for (Run run : runs) {
      if (run.onWorker && !run.waiting && !run.isLong(now)) {
        n++;
      }
    }
    return n;
  }
}
