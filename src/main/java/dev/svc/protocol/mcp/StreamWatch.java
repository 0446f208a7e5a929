package dev.svc.protocol.mcp;

import dev.svc.protocol.EventSink;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Notices a 2026-07-28 client that went away while its call answers on an SSE stream, and cancels
 * the call: a keep-alive comment every {@link #INTERVAL} while the call runs, and the call
 * cancelled like one named in {@code notifications/cancelled} once a comment cannot be written (the
 * peer's reset fails the write after the one it refused). Under 2026-07-28 closing the stream is
 * how a client cancels a request over HTTP, and the server MUST take it so; without this, an
 * abandoned call ran on to its deadline, holding its connection to the database or its script slot,
 * and a client could keep any number running past the per-client connection limit by closing each
 * connection. A JSON answer has nothing to write before its end, so such a call is not watched.
 * Session calls (2025-11-25) are not watched either: that revision says a disconnection SHOULD NOT
 * be taken as a cancel.
 */
final class StreamWatch {
  /** How often a running call's stream gets a keep-alive comment. */
  static final Duration INTERVAL = Duration.ofSeconds(2);

  private StreamWatch() {}

  /**
   * Runs {@code call} while a virtual thread writes keep-alive comments to {@code sink}; when one
   * fails, runs {@code cancel} (once) and stops.
   */
  static <T> T during(EventSink sink, Runnable cancel, Supplier<T> call) {
    CountDownLatch done = new CountDownLatch(1);
    Thread watcher =
        Thread.ofVirtual()
            .name("mcp-stream-watch")
            .start(() -> {
              try {
                while (!done.await(INTERVAL.toMillis(), TimeUnit.MILLISECONDS)) {
                  if (!sink.comment("keep-alive")) {
                    cancel.run();
                    return;
                  }
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    try {
      return call.get();
    } finally {
      done.countDown();
      try {
        // a cancel never lands on a later request that reuses the id
        watcher.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
