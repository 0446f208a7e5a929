package dev.svc.script;

import dev.svc.log.Log;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The room V8 is given, past an isolate's heap cap, to finish the one allocation that crossed it,
 * and how many isolates may take it at once in the whole process.
 *
 * <p>V8 does not ask before it fails: an allocation larger than the room left under the cap fails,
 * two collections and a last-resort one follow, and then V8 ends the process ({@code
 * HeapAllocator::AllocateRawWithRetryOrFailSlowPath}, "CALL_AND_RETRY_LAST"). The one thing it
 * consults on the way is the near-heap-limit callback, from {@code
 * Heap::CollectAllAvailableGarbage(kLastResort)}; what that callback returns is the new limit for
 * the last try. The callback does not learn the size asked for, so the room must hold the largest
 * object V8 allocates at once: {@value #LARGEST_OBJECT_MIB} MiB on this build (a {@code FixedArray}
 * or {@code FixedDoubleArray} of {@code FixedArray::kMaxLength}, 2^27 elements of 8 bytes, without
 * pointer compression; a two-byte string of {@code String::kMaxLength}). Measured, a call that
 * takes it ({@code new Array(2 ** 27).fill(0)}) ends with its isolate using the cap plus 2 GiB, and
 * is then terminated.
 *
 * <p>Isolates waiting for a permit wait inside V8's collection, on their own thread, for an isolate
 * that took one to be closed; after {@link #WAIT_SECONDS} s they take the room anyway, as the
 * alternative is the end of the process.
 */
final class HeapOverdrafts {
  private static final Log LOG = Log.tagged("script");
  private static final long MIB = 1024L * 1024;

  /** The largest single object V8 allocates on this build, in MiB (see the class comment). */
  static final long LARGEST_OBJECT_MIB = 1024;

  /** What one overdrawn isolate was measured to hold at most, beside its cap: 2 GiB. */
  static final long RESIDENT_MIB = 2 * LARGEST_OBJECT_MIB;

  static final long WAIT_SECONDS = 30;

  private static final HeapOverdrafts PROCESS = new HeapOverdrafts(defaultPermits());

  private final Semaphore permits;
  private final int count;

  HeapOverdrafts(int permits) {
    this.count = permits;
    this.permits = new Semaphore(permits, true);
  }

  static HeapOverdrafts process() {
    return PROCESS;
  }

  /**
   * Half of the memory beside the JVM's heap (the half the script memory ceiling does not count),
   * in overdrafts of {@link #RESIDENT_MIB}; at least one.
   */
  static int defaultPermits() {
    long free = Math.max(0, ScriptMemory.physicalBytes() - Runtime.getRuntime().maxMemory());
    return (int) Math.max(1, free / 2 / (RESIDENT_MIB * MIB));
  }

  /** How many isolates may be overdrawn at once. */
  int permits() {
    return count;
  }

  /** The room to give past the current limit, in bytes, once a permit is held. */
  static long roomBytes(long heapBytes) {
    return LARGEST_OBJECT_MIB * MIB + heapBytes;
  }

  /**
   * Takes a permit, waiting for one up to {@link #WAIT_SECONDS} s; true when one was taken (and
   * must be {@linkplain #release() released}), false when the wait ran out.
   */
  boolean take() {
    boolean interrupted = Thread.interrupted();
    try {
      while (true) {
        try {
          boolean taken = permits.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS);
          if (!taken) {
            LOG.warn(
                "more script calls than expected reached the heap cap at once; one goes on"
                    + " without waiting",
                "overdrafts",
                count);
          }
          return taken;
        } catch (InterruptedException e) {
          interrupted = true; // the call's end is what releases the permits: keep waiting
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  void release() {
    permits.release();
  }
}
