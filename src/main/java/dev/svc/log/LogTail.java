package dev.svc.log;

import java.util.ArrayDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Who else reads the log lines as they are written: the dev console's live tail ({@code svc start
 * --ui}). A listener gets each line as written (text or JSON, as configured) on the logging thread,
 * so it must only hand the line over (to a bounded queue) and never block or log itself. Once
 * {@link #remember} was called, the last lines are kept too, so that a page opened later starts
 * with them; until then nothing is kept and a line costs one check.
 */
public final class LogTail {
  private static final CopyOnWriteArrayList<Consumer<String>> LISTENERS =
      new CopyOnWriteArrayList<>();
  private static final ReentrantLock LOCK = new ReentrantLock();
  private static final ArrayDeque<String> RECENT = new ArrayDeque<>();
  private static volatile int kept;

  private LogTail() {}

  /** A listener's registration; closing it stops the lines. */
  public interface Subscription extends AutoCloseable {
    @Override
    void close();
  }

  /** Keeps the last {@code lines} lines from now on (the largest count asked for wins). */
  public static void remember(int lines) {
    LOCK.lock();
    try {
      kept = Math.max(kept, lines);
    } finally {
      LOCK.unlock();
    }
  }

  /**
   * Hands {@code listener} the lines kept so far, then every line as written, with none lost or
   * repeated in between; close the result to stop.
   */
  public static Subscription listen(Consumer<String> listener) {
    LOCK.lock();
    try {
      RECENT.forEach(listener);
      LISTENERS.add(listener);
    } finally {
      LOCK.unlock();
    }
    return () -> LISTENERS.remove(listener);
  }

  static void publish(String line) {
    if (kept == 0 && LISTENERS.isEmpty()) {
      return;
    }
    LOCK.lock();
    try {
      if (kept > 0) {
        RECENT.addLast(line);
        while (RECENT.size() > kept) {
          RECENT.removeFirst();
        }
      }
      for (Consumer<String> listener : LISTENERS) {
        try {
          listener.accept(line);
        } catch (RuntimeException e) {
          // a listener's fault must not fail the request being logged
        }
      }
    } finally {
      LOCK.unlock();
    }
  }
}
