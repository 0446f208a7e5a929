package dev.svc.script;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the answers of scripts' {@code fetch}es may hold of the JVM's heap, for the whole process.
 *
 * <p>A request is copied into the JVM and held until it is sent (its JSON from the sandbox, the
 * text of its body, the body's bytes), and a response body is read into the JVM before it goes to
 * the isolate: its bytes, the text decoded from them and the JSON answer that carries the text to
 * {@code sandbox.js}. Each may have 16 MiB and each call 64 fetches in flight, and many calls run
 * at once: without a budget, one call fetching 64 large bodies at once, or posting 32 large ones,
 * took the whole heap, and the launcher's {@code -XX:+ExitOnOutOfMemoryError} ended the server. So
 * a fetch is counted here from its start, at {@value #HEAP_PER_BODY_BYTE} bytes of heap per
 * character of its request and per byte of its response body as it is read, and then as its
 * answer's JSON, until the call has handed it to its isolate (or given up on it); a fetch the
 * budget has no room for fails with a message that says so, and the server lives on.
 *
 * <p><b>Size.</b> A quarter of the JVM's maximum heap ({@link Runtime#maxMemory()}): 128 MiB with
 * the launcher's {@code -Xmx512m}, two of the largest bodies at once, beside the quarter that
 * results have ({@code ResultMemory}).
 */
final class FetchMemory {
  /**
   * Heap a body takes per byte while it is read and handed on: the bytes, their copy into one
   * array, the decoded text and the JSON answer.
   */
  static final int HEAP_PER_BODY_BYTE = 4;

  private static final FetchMemory PROCESS = ofHeap(Runtime.getRuntime().maxMemory());

  private final long budgetBytes;
  private final AtomicLong reserved = new AtomicLong();

  FetchMemory(long budgetBytes) {
    if (budgetBytes < 1) {
      throw new IllegalArgumentException("the fetch budget must be positive");
    }
    this.budgetBytes = budgetBytes;
  }

  /** A quarter of a heap of {@code maxHeapBytes}, at least 4 MiB. */
  static FetchMemory ofHeap(long maxHeapBytes) {
    return new FetchMemory(Math.max(4L << 20, maxHeapBytes / 4));
  }

  /** The process's one instance, sized from the JVM's heap. */
  static FetchMemory process() {
    return PROCESS;
  }

  long budgetBytes() {
    return budgetBytes;
  }

  /** Bytes the answers being read or waiting for their isolate hold right now. */
  long reservedBytes() {
    return reserved.get();
  }

  /**
   * A new reservation for one fetch's answer; {@link Reservation#close close} it when handed on.
   */
  Reservation open() {
    return new Reservation();
  }

  /**
   * The bytes one fetch's answer holds. Filled by the thread that reads the body, closed by whoever
   * is done with the answer (the call that took it, or the call's end); after {@link #close}
   * nothing more can be reserved, so a body still being read when its call gave up stops.
   */
  final class Reservation implements AutoCloseable {
    private long held;
    private boolean closed;

    private Reservation() {}

    /** Reserves {@code bytes} more; false, reserving nothing, when the budget has no room. */
    synchronized boolean add(long bytes) {
      if (closed) {
        return false;
      }
      while (true) {
        long now = reserved.get();
        if (now + bytes > budgetBytes) {
          return false;
        }
        if (reserved.compareAndSet(now, now + bytes)) {
          held += bytes;
          return true;
        }
      }
    }

    /**
     * Holds exactly {@code bytes} from now on (the answer is made: what was counted for its copies
     * and its request is given back, or more is reserved when its JSON is larger); false, changing
     * nothing, when more is needed and the budget has no room.
     */
    synchronized boolean resize(long bytes) {
      if (closed) {
        return false;
      }
      if (bytes > held) {
        long more = bytes - held;
        if (!add(more)) {
          return false;
        }
      } else {
        reserved.addAndGet(bytes - held);
        held = bytes;
      }
      return true;
    }

    /** Gives the bytes back; idempotent. */
    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        reserved.addAndGet(-held);
        held = 0;
      }
    }
  }
}
