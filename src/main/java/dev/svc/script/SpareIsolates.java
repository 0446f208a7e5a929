package dev.svc.script;

import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The isolates made for calls on their callers' threads: those in use, and the spare ones, free for
 * the next such call (most recent first). A worker the pool adds may adopt a spare one. Once the
 * runner retires or closes ({@link #stop()}), none is kept spare any more.
 */
final class SpareIsolates {
  private final IsolateLimits limits;
  private final ConcurrentLinkedDeque<ScriptIsolate> spare = new ConcurrentLinkedDeque<>();

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
    return spare.pollFirst();
  }

  /** Makes an isolate spare again; closes it instead when the runner stopped meanwhile. */
  void giveBack(ScriptIsolate isolate) {
    spare.addFirst(isolate);
    if (stopped && spare.remove(isolate)) { // stop() may have emptied the spares before this add
      isolate.close();
      release();
    }
  }

  /**
   * The longest-spare isolate, for a new worker: it is the worker's from now on, still counted by
   * the limits.
   */
  Optional<ScriptIsolate> adopt() {
    ScriptIsolate isolate = spare.pollLast();
    if (isolate == null) {
      return Optional.empty();
    }
    made.decrementAndGet();
    return Optional.of(isolate);
  }

  /** The runner retired or closed: closes every spare isolate, and keeps none from now on. */
  void stop() {
    stopped = true;
    ScriptIsolate isolate;
    while ((isolate = spare.pollFirst()) != null) {
      isolate.close();
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
