package dev.svc.json;

import java.io.Serial;
import java.util.concurrent.atomic.AtomicReferenceArray;
import tools.jackson.core.util.BufferRecycler;
import tools.jackson.core.util.RecyclerPool;

/**
 * Jackson's buffer recyclers kept in a small array of slots taken and filled with one
 * compare-and-set each: no lock, no queue nodes.
 *
 * <p>Why not Jackson's own pools: its default (a {@code ConcurrentLinkedDeque}) cost 3–7% of all
 * CPU under load in {@code pollFirst} alone (two cores contending on its ends and walking its
 * unlinked nodes); its bounded pool takes a lock; its thread-local pool makes a new recycler for
 * every virtual thread, which is every request. Here a caller starts at a slot picked by its thread
 * id, so concurrent callers mostly touch different slots. When the slots it looks at are empty it
 * gets a new recycler; when they are full a returned one is dropped for the GC.
 */
final class BufferPool implements RecyclerPool<BufferRecycler> {
  @Serial private static final long serialVersionUID = 1L;

  /** Slots in all (a power of two). */
  static final int SLOTS = 64;

  /** Slots one acquire or release looks at before it gives up. */
  static final int PROBES = 16;

  private final transient AtomicReferenceArray<BufferRecycler> slots =
      new AtomicReferenceArray<>(SLOTS);

  @Override
  public BufferRecycler acquirePooled() {
    int start = start();
    for (int i = 0; i < PROBES; i++) {
      int slot = (start + i) & (SLOTS - 1);
      BufferRecycler recycler = slots.getPlain(slot);
      if (recycler != null && slots.compareAndSet(slot, recycler, null)) {
        return recycler;
      }
    }
    return new BufferRecycler();
  }

  @Override
  public void releasePooled(BufferRecycler recycler) {
    int start = start();
    for (int i = 0; i < PROBES; i++) {
      int slot = (start + i) & (SLOTS - 1);
      if (slots.getPlain(slot) == null && slots.compareAndSet(slot, null, recycler)) {
        return;
      }
    }
  }

  @Override
  public int pooledCount() {
    int count = 0;
    for (int i = 0; i < SLOTS; i++) {
      if (slots.get(i) != null) {
        count++;
      }
    }
    return count;
  }

  @Override
  public boolean clear() {
    for (int i = 0; i < SLOTS; i++) {
      slots.set(i, null);
    }
    return true;
  }

  /** Where a thread starts looking: its id spread over the slots. */
  private static int start() {
    long id = Thread.currentThread().threadId();
    return (int) (id ^ (id >>> 7)) * 8;
  }
}
