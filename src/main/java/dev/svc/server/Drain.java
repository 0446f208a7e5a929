package dev.svc.server;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the requests in flight and says how a request is treated as the server stops: served as
 * usual (also once withdrawn: {@code /ready} answers 503 while the server still accepts, so load
 * balancers stop routing to it); served and then its connection closed (draining: the listening
 * socket is closed, so the client's next request goes to another instance); or refused with 503 and
 * {@code Retry-After} (after the drain limit, when the connections are about to close).
 *
 * <p>Connections are kept open while withdrawn: closing them then would make clients that talk to
 * this instance directly reconnect at once, and connections that reach the listening socket just as
 * it closes are reset by the kernel after their request was sent. Kept open, they carry on until
 * the drain begins, and then each closes after its next answer, when new connections are refused
 * cleanly.
 *
 * <p>Counting is one atomic add per request and its answer; only shutdown waits (in {@link
 * HttpServer#awaitIdle}), by looking every few milliseconds, so requests never take a lock.
 */
final class Drain {
  enum Phase {
    SERVING,
    WITHDRAWN,
    DRAINING,
    REFUSING
  }

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
}
