package dev.svc.script;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Each tool's share of the isolates: at most {@link #share()} script calls of one tool hold an
 * isolate at once; the tool's further calls wait (each no longer than its deadline) until one of
 * them ends. So a tool whose calls never return (an endless loop, a hung fetch) holds a bounded
 * number of isolates however many calls it receives, and the memory ceiling keeps room for the
 * other tools. The calls of one tool (its auth plugin, transforms and handler) share its share.
 */
final class ToolShares {
  private final int share;
  private final ConcurrentHashMap<String, Semaphore> tools = new ConcurrentHashMap<>();
  private final AtomicInteger waiting = new AtomicInteger();

  /**
   * The shares of a pool: {@code maxIsolates} isolates per tool, and at most half of what the
   * memory ceiling holds (at least one), so that a tool whose calls never return leaves room for
   * the others.
   */
  static ToolShares of(int maxIsolates, ScriptMemory memory) {
    return new ToolShares(Math.min(maxIsolates, Math.max(1, memory.maxIsolates() / 2)));
  }

  ToolShares(int share) {
    if (share < 1) {
      throw new IllegalArgumentException("a tool's share is at least one isolate");
    }
    this.share = share;
  }

  int share() {
    return share;
  }

  /** Calls waiting for their tool's share. */
  int waiting() {
    return waiting.get();
  }

  /**
   * Takes one place of {@code call}'s tool, waiting for one if all are taken; {@link #leave} gives
   * it back.
   *
   * @throws ScriptTimeoutException when no place came free before the call's deadline
   * @throws ScriptFailedException when the caller was interrupted (the call was cancelled)
   */
  void enter(ScriptCall call) {
    Semaphore places = tools.computeIfAbsent(call.tool(), tool -> new Semaphore(share, true));
    if (places.tryAcquire()) {
      return;
    }
    waiting.incrementAndGet();
    try {
      if (!places.tryAcquire(Math.max(0, call.deadline().remainingNanos()), TimeUnit.NANOSECONDS)) {
        throw ScriptTimeoutException.notStarted(
            call.deadline().timeout(),
            "`"
                + call.tool()
                + "` already has "
                + (share == 1 ? "1 script call" : share + " script calls")
                + " running, the most one tool may have at once");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScriptFailedException("the call was cancelled");
    } finally {
      waiting.decrementAndGet();
    }
  }

  /** Gives back the place {@link #enter} took for {@code call}. */
  void leave(ScriptCall call) {
    Semaphore places = tools.get(call.tool());
    if (places != null) {
      places.release();
    }
  }
}
