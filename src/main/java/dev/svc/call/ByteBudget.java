package dev.svc.call;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A number of bytes that many callers hold parts of at once, shared without a lock: what the
 * request bodies being received may hold ({@code server.BodyMemory}), the results of the calls in
 * flight ({@code connector.ResultMemory}), the open {@code subscriptions/listen} streams' filters,
 * the A2A push notifications waiting to be sent. A caller takes bytes before it holds them and
 * gives them back when it no longer does; what the budget has no room for is refused, not waited
 * for, so that a flood of large requests is answered with an error instead of filling the heap.
 */
public final class ByteBudget {
  private final long limitBytes;
  private final AtomicLong taken = new AtomicLong();

  /**
   * @param limitBytes the most bytes all holders may have taken together; positive
   */
  public ByteBudget(long limitBytes) {
    if (limitBytes < 1) {
      throw new IllegalArgumentException("a byte budget must be positive");
    }
    this.limitBytes = limitBytes;
  }

  public long limitBytes() {
    return limitBytes;
  }

  /** The bytes taken now, by all holders together. */
  public long takenBytes() {
    return taken.get();
  }

  /**
   * Takes {@code bytes} when they fit beside those already taken; false (and nothing taken) when
   * they do not.
   */
  public boolean take(long bytes) {
    return take(bytes, false);
  }

  /**
   * {@link #take} that also lets one holder alone past the limit: true whenever nothing is taken
   * yet, so that a single request larger than the budget is still served while nothing else is.
   */
  public boolean takeOrAlone(long bytes) {
    return take(bytes, true);
  }

  private boolean take(long bytes, boolean aloneFits) {
    while (true) {
      long now = taken.get();
      boolean fits = bytes <= limitBytes - now || (aloneFits && now == 0);
      if (!fits) {
        return false;
      }
      if (taken.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  /** Gives back {@code bytes} that {@link #take} took. */
  public void give(long bytes) {
    taken.addAndGet(-bytes);
  }
}
