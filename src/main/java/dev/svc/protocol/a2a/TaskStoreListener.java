package dev.svc.protocol.a2a;

import dev.svc.log.Log;
import java.util.function.BooleanSupplier;

/**
 * The listening loop of a shared task store, on its own thread: listens on a connection of its own
 * until it fails, then waits (200 ms, doubling up to 5 s) and listens again, until the store closes
 * or the thread is interrupted. Each store says how it listens (PostgreSQL {@code LISTEN}, Redis
 * pub/sub); a listener that reconnects wakes every waiting stream, which reads again what it may
 * have missed.
 */
final class TaskStoreListener {
  private static final Log LOG = Log.tagged("a2a:tasks");
  private static final long FIRST_BACKOFF_MILLIS = 200;
  private static final long MAX_BACKOFF_MILLIS = 5_000;

  /** One listening session: returns when the store closes, throws when the connection fails. */
  @FunctionalInterface
  interface Session {
    /**
     * @param connected to call once the session listens (the back-off starts over)
     */
    void listen(Runnable connected) throws Exception;
  }

  private TaskStoreListener() {}

  /** Starts listening on a daemon thread of its own, until the store closes. */
  static Thread start(String description, BooleanSupplier closed, Session session) {
    return Thread.ofPlatform()
        .daemon()
        .name("svc-a2a-listen")
        .start(() -> run(description, closed, session));
  }

  private static void run(String description, BooleanSupplier closed, Session session) {
    long[] backoff = {FIRST_BACKOFF_MILLIS};
    while (!closed.getAsBoolean()) {
      try {
        session.listen(() -> backoff[0] = FIRST_BACKOFF_MILLIS);
      } catch (Exception e) {
        if (closed.getAsBoolean()) {
          return;
        }
        LOG.warn(
            "task store listener lost its connection; reconnecting",
            "store",
            description,
            "error",
            StoredTasks.firstLine(e));
        try {
          Thread.sleep(backoff[0]);
        } catch (InterruptedException interrupted) {
          return;
        }
        backoff[0] = Math.min(backoff[0] * 2, MAX_BACKOFF_MILLIS);
      }
    }
  }
}
