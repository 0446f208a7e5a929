package dev.svc.script;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One isolate's share of what the process's V8 isolates hold in memory, and their sum: V8's heap
 * (the physical pages of its spaces) plus what V8 allocated with malloc beside it, as each isolate
 * last measured it. An isolate measures itself after a call, at most once a second, on its own
 * thread, and takes its share back when it closes, so the sum follows the isolates without stopping
 * any of them (the {@code svc_script_memory_used_bytes} gauge).
 */
final class IsolateHeaps {
  static final long SAMPLE_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

  private static final AtomicLong PROCESS = new AtomicLong();

  private final AtomicLong total;
  private long reported;
  private boolean closed;

  /** Written and read on the isolate's own thread only. */
  private long lastSample = System.nanoTime() - SAMPLE_INTERVAL_NANOS;

  /** An isolate's share of the process's sum. */
  IsolateHeaps() {
    this(PROCESS);
  }

  /** A share of {@code total} (a sum of its own, in tests). */
  IsolateHeaps(AtomicLong total) {
    this.total = total;
  }

  /** What all live isolates of the process hold, in bytes, as last measured. */
  static long totalBytes() {
    return PROCESS.get();
  }

  /** Whether this isolate should measure itself now; called on its own thread. */
  boolean due(long nanoTime) {
    if (nanoTime - lastSample < SAMPLE_INTERVAL_NANOS) {
      return false;
    }
    lastSample = nanoTime;
    return true;
  }

  /** This isolate now holds {@code bytes}; ignored once it closed. */
  synchronized void measured(long bytes) {
    if (!closed) {
      total.addAndGet(bytes - reported);
      reported = bytes;
    }
  }

  /** The isolate closed: its share leaves the sum. */
  synchronized void close() {
    closed = true;
    total.addAndGet(-reported);
    reported = 0;
  }
}
