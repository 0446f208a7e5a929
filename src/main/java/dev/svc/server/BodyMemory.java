package dev.svc.server;

import dev.svc.call.ByteBudget;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the request bodies being received and handled may hold of the heap together, for the whole
 * process. Each request's body buffer takes its bytes from this budget as it grows (as the bytes
 * arrive, never ahead of them on the word of a {@code Content-Length}) and gives them back when its
 * request has been handled; a body the budget has no room for is refused with 503 and {@code
 * Retry-After} instead of letting many large bodies arriving at once take the process down.
 *
 * <p><b>Size.</b> An eighth of the JVM's maximum heap, and never less than one body of the largest
 * size accepted ({@code server.limits.max_body_mb}): 64 MiB with the launcher's 512 MiB heap, room
 * for sixteen 4 MiB bodies at once, or thousands of the usual few hundred bytes.
 */
final class BodyMemory {
  private final ByteBudget budget;

  BodyMemory(long budgetBytes) {
    this.budget = new ByteBudget(budgetBytes);
  }

  /** The sizes for a heap of {@code maxHeapBytes} and bodies of at most {@code maxBodyBytes}. */
  static BodyMemory forHeap(long maxHeapBytes, long maxBodyBytes) {
    return new BodyMemory(Math.max(maxHeapBytes / 8, maxBodyBytes));
  }

  long budgetBytes() {
    return budget.limitBytes();
  }

  /** The bytes held by all bodies now. */
  long reservedBytes() {
    return budget.takenBytes();
  }

  /** A new, empty hold for one request's body. */
  Hold hold() {
    return new Hold(budget);
  }

  /**
   * One request's share of the budget. Grown by the thread that reads the body; given back once, by
   * whichever comes first of the request's handling and its end ({@link #close} is idempotent).
   */
  static final class Hold implements AutoCloseable {
    /** A hold that takes nothing from any budget, for a small read bounded by its caller. */
    static final Hold UNCOUNTED = new Hold(null);

    private final ByteBudget memory;

    /** The bytes held, or -1 once closed. */
    private final AtomicLong held = new AtomicLong();

    private Hold(ByteBudget memory) {
      this.memory = memory;
    }

    /** Takes {@code bytes} more; false (and nothing taken) when the budget has no room. */
    boolean reserve(long bytes) {
      if (memory == null) {
        return true;
      }
      if (held.get() < 0 || !memory.take(bytes)) {
        return false;
      }
      if (held.getAndUpdate(h -> h < 0 ? h : h + bytes) < 0) {
        memory.give(bytes); // closed meanwhile: nothing may stay taken
        return false;
      }
      return true;
    }

    /** Gives back what this hold took; later calls do nothing. */
    @Override
    public void close() {
      long was = held.getAndSet(-1);
      if (memory != null && was > 0) {
        memory.give(was);
      }
    }
  }
}
