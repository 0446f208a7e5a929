package dev.svc.script;

import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The isolates made for calls on their callers' threads: those in use, and the spare ones, free for
 * the next such call (most recent first). A worker the pool adds may adopt a spare one. Spare ones
 * idle for longer than the idle timeout are closed ({@link #closeIdle}); once the runner retires or
 * closes ({@link #stop()}), none is kept spare any more.
 */
final class SpareIsolates {
  /** A spare isolate and since when ({@link System#nanoTime()}) it is. */
  private record Spare(ScriptIsolate isolate, long since) {}

  private final IsolateLimits limits;
  private final ConcurrentLinkedDeque<Spare> spare = new ConcurrentLinkedDeque<>();

  /** Isolates made for calls on their callers' threads (spare or in use). */
  private final AtomicInteger made = new AtomicInteger();

  private volatile boolean stopped;

  SpareIsolates(IsolateLimits limits) {
    this.limits = limits;
  }

  /** Counts one more isolate for callers; the caller has reserved it with the limits. */
  void counted() {
    made.incrementAndGet();
  }

  /** An isolate counted by {@link #counted()} is closed (or was never made). */
  void release() {
    made.decrementAndGet();
    limits.release();
  }

  /**
   * The most recently spared isolate, or null when none is spare (null, not an empty optional: this
   * runs on every call on a caller's thread).
   */
  ScriptIsolate take() {
    Spare first = spare.pollFirst();
    return first == null ? null : first.isolate();
  }

  /** Makes an isolate spare again; closes it instead when the runner stopped meanwhile. */
  void giveBack(ScriptIsolate isolate) {
    Spare given = new Spare(isolate, System.nanoTime());
    spare.addFirst(given);
    if (stopped && spare.remove(given)) { // stop() may have emptied the spares before this add
      isolate.close();
      release();
    }
  }

  /**
   * Closes the isolates spare for {@code idleNanos} or longer (the least recently used are at the
   * end); returns how many.
   */
  int closeIdle(long idleNanos) {
    int closed = 0;
    long now = System.nanoTime();
    Spare oldest;
    while ((oldest = spare.peekLast()) != null && now - oldest.since() >= idleNanos) {
      if (spare.removeLastOccurrence(oldest)) { // not taken by a call meanwhile
        oldest.isolate().close();
        release();
        closed++;
      }
    }
    return closed;
  }

  /**
   * The longest-spare isolate, for a new worker: it is the worker's from now on, still counted by
   * the limits.
   */
  Optional<ScriptIsolate> adopt() {
    Spare last = spare.pollLast();
    if (last == null) {
      return Optional.empty();
    }
    made.decrementAndGet();
    return Optional.of(last.isolate());
  }

  /** The runner retired or closed: closes every spare isolate, and keeps none from now on. */
  void stop() {
    stopped = true;
    Spare next;
    while ((next = spare.pollFirst()) != null) {
      next.isolate().close();
      release();
    }
  }

  /** Isolates made for callers, spare or in use. */
  int made() {
    return made.get();
  }

  /** Isolates spare now. */
  int spare() {
    return spare.size();
  }
}
