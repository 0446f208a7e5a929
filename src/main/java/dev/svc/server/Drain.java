package dev.svc.server;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the requests in flight and says how a request is treated as the server stops: served as
 * usual; served and then its connection closed (withdrawn: {@code /ready} answers 503 while the
 * server still accepts, so load balancers stop routing to it; draining: the listening socket is
 * closed, so the client's next request goes to another instance); or refused with 503 and {@code
 * Retry-After} (after the drain limit, when the connections are about to close).
 *
 * <p>Counting is one atomic add per request and its answer; only shutdown waits, by looking every
 * few milliseconds, so requests never take a lock.
 */
final class Drain {
  enum Phase {
    SERVING,
    WITHDRAWN,
    DRAINING,
    REFUSING
  }

  private static final long LOOK_MILLIS = 10;

  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile Phase phase = Phase.SERVING;

  /** Counts a request in; false when it must be refused (it is then not counted). */
  boolean admit() {
    if (phase == Phase.REFUSING) {
      return false;
    }
    inFlight.incrementAndGet();
    if (phase == Phase.REFUSING) {
      inFlight.decrementAndGet();
      return false;
    }
    return true;
  }

  /** Counts an admitted request out, once its answer is written or has failed. */
  void leave() {
    inFlight.decrementAndGet();
  }

  Phase phase() {
    return phase;
  }

  void withdraw() {
    if (phase == Phase.SERVING) {
      phase = Phase.WITHDRAWN;
    }
  }

  void startDraining() {
    if (phase == Phase.SERVING || phase == Phase.WITHDRAWN) {
      phase = Phase.DRAINING;
    }
  }

  void refuseNew() {
    phase = Phase.REFUSING;
  }

  int inFlight() {
    return inFlight.get();
  }

  /** Waits until no request is in flight, at most {@code limit}; true when none is. */
  boolean awaitIdle(Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (inFlight.get() > 0) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      try {
        Thread.sleep(LOOK_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return inFlight.get() == 0;
      }
    }
    return true;
  }
}
