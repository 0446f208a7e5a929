package dev.svc.log;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Who else reads the log lines as they are written: the dev console's live tail ({@code svc start
 * --ui}). A listener gets each line as written (text or JSON, as configured) on the logging thread,
 * so it must only hand the line over (to a bounded queue) and never block or log itself.
 */
public final class LogTail {
  private static final CopyOnWriteArrayList<Consumer<String>> LISTENERS =
      new CopyOnWriteArrayList<>();

  private LogTail() {}

  /** A listener's registration; closing it stops the lines. */
  public interface Subscription extends AutoCloseable {
    @Override
    void close();
  }

  /** Starts handing lines to {@code listener}; close the result to stop. */
  public static Subscription listen(Consumer<String> listener) {
    LISTENERS.add(listener);
    return () -> LISTENERS.remove(listener);
  }

  static void publish(String line) {
    if (LISTENERS.isEmpty()) {
      return;
    }
    for (Consumer<String> listener : LISTENERS) {
      try {
        listener.accept(line);
      } catch (RuntimeException e) {
        // a listener's fault must not fail the request being logged
      }
    }
  }
}
