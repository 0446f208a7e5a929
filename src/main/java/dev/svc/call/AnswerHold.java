package dev.svc.call;

import java.util.ArrayList;
import java.util.List;

/**
 * What the answer to one HTTP request holds of svc's memory until it is written: the reservations a
 * tool call or a resource read took from the result budget stay taken while the answer is turned
 * into JSON and sent, not only while the result is read. Otherwise a result's budget came back
 * before its answer existed, and many calls whose big answers were still being written (a tool with
 * its caps off, a large resource file) held far more than the budget: 128 answers of 9 MB at once
 * ended the process.
 *
 * <p>The HTTP layer binds one per request ({@link #CURRENT}) around the protocol's handling and the
 * write, and calls {@link #written} when the response is complete or failed. Code that reserves
 * memory {@linkplain #defer defers} the release to it; without one bound (an agent's tool call on
 * its task's thread, a test) the caller releases at once.
 */
public final class AnswerHold {
  /** The hold of the request whose answer is being made on this thread; unbound elsewhere. */
  public static final ScopedValue<AnswerHold> CURRENT = ScopedValue.newInstance();

  private final List<AutoCloseable> held = new ArrayList<>(1);
  private boolean written;

  /**
   * Releases {@code reservation} when the answer of the request on this thread is written, if one
   * is being made here; false when none is (the caller releases it itself).
   */
  public static boolean defer(AutoCloseable reservation) {
    if (!CURRENT.isBound()) {
      return false;
    }
    return CURRENT.get().hold(reservation);
  }

  private synchronized boolean hold(AutoCloseable reservation) {
    if (written) {
      return false; // a late reservation (a stream's writer that outlived the answer)
    }
    held.add(reservation);
    return true;
  }

  /** The answer is written (or failed): every deferred reservation is released. Idempotent. */
  public void written() {
    List<AutoCloseable> releasing;
    synchronized (this) {
      if (written) {
        return;
      }
      written = true;
      releasing = List.copyOf(held);
      held.clear();
    }
    for (AutoCloseable reservation : releasing) {
      try {
        reservation.close();
      } catch (Exception e) {
        // a reservation's release does not fail; nothing to do for one that does
      }
    }
  }
}
