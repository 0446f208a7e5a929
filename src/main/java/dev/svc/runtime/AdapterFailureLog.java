package dev.svc.runtime;

import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.log.Log;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Logs the calls that fail because their adapter is unavailable without flooding the log during an
 * outage (a Redis down for 3 s under load once wrote 54,133 lines): per adapter, the first failure
 * in full (with its request id, and its stack trace at debug level), then one summary every {@link
 * #WINDOW} while calls keep failing, even if no further call arrives, then one line when a call
 * succeeds again. Metrics still count every failed call; at debug level every suppressed failure
 * also gets its own line with its request id.
 *
 * <p>A failing call takes no lock: it adds to striped counters ({@link LongAdder}) and reads a few
 * volatile fields. Locks are taken, per adapter, only when an outage begins or ends and when a
 * summary is written; summaries are written by a virtual thread that runs only while some adapter
 * has failures not yet written.
 *
 * <p>An adapter that flaps (a failure, a success, a failure…) writes at most one first-failure line
 * and one recovery line per window; what happens in between is in the summaries, which say when the
 * adapter answers again.
 */
public final class AdapterFailureLog {
  /** How often, at most, an adapter's failures are summarised. */
  public static final Duration WINDOW = Duration.ofSeconds(5);

  /** Distinct error messages counted per adapter; more go to "other errors". */
  static final int MAX_ERRORS = 8;

  /** Error messages shown in a summary, the most frequent first. */
  static final int SHOWN_ERRORS = 3;

  private static final Log LOG = Log.tagged("db");
  private static final long IDLE = Long.MIN_VALUE;

  private final LongSupplier clock;
  private final Consumer<Entry> out;
  private final Consumer<Runnable> background;
  private final long window;
  private final Map<String, Tracker> trackers = new ConcurrentHashMap<>();
  private final AtomicBoolean ticking = new AtomicBoolean();

  /** Writes to svc's log under the tag {@code db}, summaries from a virtual thread. */
  public AdapterFailureLog() {
    this(
        System::nanoTime,
        AdapterFailureLog::write,
        task -> Thread.ofVirtual().name("svc-adapter-failures").start(task));
  }

  /**
   * @param clock nanoseconds, as {@link System#nanoTime()}
   * @param out receives every line to write (tests collect them)
   * @param background starts the task that writes summaries when they are due (tests pass a no-op
   *     and call {@link #flushDue} themselves)
   */
  AdapterFailureLog(LongSupplier clock, Consumer<Entry> out, Consumer<Runnable> background) {
    this.clock = clock;
    this.out = out;
    this.background = background;
    this.window = WINDOW.toNanos();
  }

  /** A line about an adapter's failures. */
  sealed interface Entry {
    String adapter();

    /** The line's text. */
    String message();

    /** The first failure of an outage, in full. */
    record FirstFailure(String adapter, String tool, ConnectorUnavailableException error)
        implements Entry {
      @Override
      public String message() {
        return "adapter "
            + adapter
            + ": a call failed; further failures are summarised every "
            + WINDOW.toSeconds()
            + " s until a call succeeds";
      }
    }

    /**
     * Calls that failed since the adapter's last line that counted failures.
     *
     * @param errors the distinct error messages, the most frequent first
     * @param failing whether the adapter's last call failed (false: it answers again)
     */
    record Summary(
        String adapter, long failed, Duration window, List<ErrorCount> errors, boolean failing)
        implements Entry {
      public Summary {
        errors = List.copyOf(errors);
      }

      @Override
      public String message() {
        StringBuilder text =
            new StringBuilder("adapter ")
                .append(adapter)
                .append(": ")
                .append(calls(failed))
                .append(" failed in the last ")
                .append(seconds(window));
        if (!failing) {
          text.append(" (it answers again)");
        }
        text.append(": ");
        if (errors.size() == 1 && errors.getFirst().calls() >= failed) {
          return text.append(errors.getFirst().message()).toString();
        }
        long listed = 0;
        for (int i = 0; i < Math.min(SHOWN_ERRORS, errors.size()); i++) {
          ErrorCount error = errors.get(i);
          text.append(i == 0 ? "" : "; ")
              .append(error.message())
              .append(" (")
              .append(calls(error.calls()))
              .append(')');
          listed += error.calls();
        }
        if (failed > listed) {
          text.append(listed == 0 ? "" : "; ")
              .append(calls(failed - listed))
              .append(" with other errors");
        }
        return text.toString();
      }
    }

    /** A call succeeded after an outage; {@code failed} counts every failure since it began. */
    record Recovered(String adapter, Duration after, long failed) implements Entry {
      @Override
      public String message() {
        return "adapter "
            + adapter
            + ": recovered after "
            + seconds(after)
            + ", "
            + calls(failed)
            + " failed";
      }
    }
  }

  /** How many calls failed with one error message. */
  record ErrorCount(String message, long calls) {}

  /**
   * Counts a call that failed because its adapter is unavailable, and writes it in full if it is
   * the first of an outage. Call it on the failing call's thread: the full line carries that call's
   * request id.
   */
  public void failed(String adapter, String tool, ConnectorUnavailableException error) {
    Tracker tracker = trackers.get(adapter);
    if (tracker == null) {
      tracker = trackers.computeIfAbsent(adapter, Tracker::new);
    }
    String message = String.valueOf(error.getMessage());
    tracker.total.increment();
    tracker.count(message);
    if (tracker.windowStart.get() == IDLE
        && tracker.windowStart.compareAndSet(IDLE, clock.getAsLong())) {
      startTicker();
    }
    if (!tracker.failing && tracker.begin(clock.getAsLong(), window)) {
      out.accept(new Entry.FirstFailure(adapter, tool, error));
    } else if (LOG.isDebug()) {
      LOG.debug("adapter call failed", "adapter", adapter, "tool", tool, "error", message);
    }
  }

  /** Notes a call on the adapter that succeeded: after an outage, writes that it recovered. */
  public void succeeded(String adapter) {
    Tracker tracker = trackers.get(adapter);
    if (tracker == null || !tracker.failing) {
      return;
    }
    tracker.end(clock.getAsLong(), window).ifPresent(out);
  }

  /**
   * Writes the summaries whose window has ended.
   *
   * @return nanoseconds until the next window ends, or -1 when no adapter has failures to write
   */
  long flushDue() {
    long now = clock.getAsLong();
    long next = -1;
    for (Tracker tracker : trackers.values()) {
      long start = tracker.windowStart.get();
      if (start == IDLE) {
        // a failure counted while a summary or recovery closed the window: a window of its own
        if (tracker.total.sum() <= tracker.reported
            || !tracker.windowStart.compareAndSet(IDLE, now)) {
          continue;
        }
        start = now;
      }
      long left = start + window - now;
      if (left > 0) {
        next = next < 0 ? left : Math.min(next, left);
      } else {
        tracker.summary(now).ifPresent(out);
      }
    }
    return next;
  }

  private boolean pending() {
    for (Tracker tracker : trackers.values()) {
      if (tracker.windowStart.get() != IDLE || tracker.total.sum() > tracker.reported) {
        return true;
      }
    }
    return false;
  }

  private void startTicker() {
    if (!ticking.get() && ticking.compareAndSet(false, true)) {
      background.accept(this::tick);
    }
  }

  /** The summary writer: runs while some adapter has failures not yet written, then ends. */
  private void tick() {
    try {
      while (true) {
        long next = flushDue();
        if (next < 0) {
          ticking.set(false);
          // a failure may have opened a window after flushDue looked and before ticking was
          // cleared; its startTicker saw a ticker running, so this one must go on
          if (!pending() || !ticking.compareAndSet(false, true)) {
            return;
          }
          continue;
        }
        LockSupport.parkNanos(next);
      }
    } catch (RuntimeException e) {
      ticking.set(false);
      LOG.warn("adapter failure summaries stopped", "error", String.valueOf(e));
    }
  }

  /** Writes an entry to svc's log. */
  private static void write(Entry entry) {
    switch (entry) {
      case Entry.FirstFailure first ->
          LOG.error(
              first.message(), first.error(), "adapter", first.adapter(), "tool", first.tool());
      case Entry.Summary summary ->
          LOG.error(
              summary.message(),
              "adapter",
              summary.adapter(),
              "failed",
              summary.failed(),
              "failing",
              summary.failing());
      case Entry.Recovered recovered ->
          LOG.warn(
              recovered.message(),
              "adapter",
              recovered.adapter(),
              "failed",
              recovered.failed(),
              "ms",
              recovered.after().toMillis());
    }
  }

  private static String calls(long n) {
    return String.format(Locale.ROOT, "%,d %s", n, n == 1 ? "call" : "calls");
  }

  private static String seconds(Duration duration) {
    return String.format(Locale.ROOT, "%.1f s", duration.toNanos() / 1e9);
  }

  /** One adapter's counts and outage state. */
  private static final class Tracker {
    final String adapter;

    /** Every failure ever: never reset, so that lines count by difference. */
    final LongAdder total = new LongAdder();

    /** Failures by error message since the last summary (at most {@link #MAX_ERRORS}). */
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();

    /** When the oldest failure not yet written happened, or {@link #IDLE}. */
    final AtomicLong windowStart = new AtomicLong(IDLE);

    /** Whether the adapter's last call failed. Changed under the lock, read without. */
    volatile boolean failing;

    /** {@link #total} when failures were last written (a summary or a recovery line). */
    volatile long reported;

    // the rest is guarded by this
    private long outageStart;
    private long outageFrom;
    private long lastFirstLine = IDLE;
    private long lastRecoveryLine = IDLE;

    Tracker(String adapter) {
      this.adapter = adapter;
    }

    void count(String message) {
      LongAdder calls = errors.get(message);
      if (calls == null) {
        if (errors.size() >= MAX_ERRORS) {
          return; // still in the total: a summary shows it as "other"
        }
        calls = errors.computeIfAbsent(message, m -> new LongAdder());
      }
      calls.increment();
    }

    /**
     * Starts an outage if none is under way.
     *
     * @return whether the caller writes the first failure in full: not within a window of the last
     *     first-failure or recovery line (a flapping adapter is told by the summaries)
     */
    synchronized boolean begin(long now, long window) {
      if (failing) {
        return false;
      }
      failing = true;
      outageStart = now;
      outageFrom = reported;
      boolean announce =
          longAgo(lastFirstLine, now, window) && longAgo(lastRecoveryLine, now, window);
      if (announce) {
        lastFirstLine = now;
      }
      return announce;
    }

    /** Ends the outage: its recovery line, unless one was written within the window. */
    synchronized Optional<Entry> end(long now, long window) {
      if (!failing) {
        return Optional.empty();
      }
      failing = false;
      if (!longAgo(lastRecoveryLine, now, window)) {
        return Optional.empty();
      }
      lastRecoveryLine = now;
      long sum = total.sum();
      long failed = sum - outageFrom;
      reported = sum;
      windowStart.set(IDLE);
      errors.values().forEach(LongAdder::reset);
      return Optional.of(new Entry.Recovered(adapter, Duration.ofNanos(now - outageStart), failed));
    }

    /** The failures not yet written, when there are some. */
    synchronized Optional<Entry> summary(long now) {
      long start = windowStart.getAndSet(IDLE);
      if (start == IDLE) {
        return Optional.empty();
      }
      long sum = total.sum();
      long failed = sum - reported;
      reported = sum;
      List<ErrorCount> counted = new ArrayList<>();
      errors.forEach((message, calls) -> {
        long n = calls.sumThenReset();
        if (n > 0) {
          counted.add(new ErrorCount(message, n));
        } else {
          errors.remove(message, calls); // not seen for a whole window: room for others
        }
      });
      if (failed <= 0) {
        return Optional.empty();
      }
      counted.sort(
          Comparator.comparingLong(ErrorCount::calls)
              .reversed()
              .thenComparing(ErrorCount::message));
      return Optional.of(
          new Entry.Summary(adapter, failed, Duration.ofNanos(now - start), counted, failing));
    }

    private static boolean longAgo(long time, long now, long window) {
      return time == IDLE || now - time >= window;
    }
  }
}
