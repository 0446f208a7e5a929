package dev.svc.cli;

import dev.svc.log.Log;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Keeps a serving process's old generation near its live set under a steady load.
 *
 * <p>With the serial collector (svc's launchers choose it), a young collection that cannot promote
 * into a full old generation grows the old generation, up to {@code -Xmx}, instead of collecting
 * it: a full collection only comes when growing is no longer possible. Under steady load a trickle
 * of objects outlives the young collections (a request in flight across several of them, a
 * connection's buffers) and dies in the old generation: ~0.6 MB a minute in the 20-minute mixed
 * soak, so the committed heap crept from 32 to 44 MB there, and would reach the 512 MiB cap after
 * hours, while the live set stayed at ~8 MB (bench/RESULTS.md, "Memory, issue 24").
 *
 * <p>This watches the old generation with the JVM's usage threshold (no polling: the collector
 * checks it after each collection): when the old generation holds more than the live set of the
 * last full collection plus a margin ({@link #threshold}), it asks for a full collection ({@code
 * System.gc()}: ~20–30 ms for svc's live set on a small machine), after which the collector gives
 * the grown part back (its {@code MaxHeapFreeRatio}). At most one a minute, so a live set that
 * really grows (a large cache filling) costs at most that. Only the serial collector's old
 * generation is watched; with another collector chosen in {@code SVC_JAVA_OPTS} this does nothing.
 */
final class OldGenerationCap {
  private static final Log LOG = Log.tagged("memory");

  /** The serial collector's old generation, as the JVM names its pool. */
  static final String SERIAL_OLD_POOL = "Tenured Gen";

  /** The smallest margin of dead objects allowed above the live set. */
  static final long MIN_MARGIN_BYTES = 8L * 1024 * 1024;

  /** The least time between two collections this asks for. */
  static final Duration MIN_INTERVAL = Duration.ofMinutes(1);

  private static final AtomicBoolean WATCHING = new AtomicBoolean();

  private OldGenerationCap() {}

  /**
   * How full the old generation may get before a full collection is asked for: the live set plus
   * half of it, at least {@link #MIN_MARGIN_BYTES}, and never above the generation's maximum (where
   * the collector collects by itself anyway).
   */
  static long threshold(long liveBytes, long maxBytes) {
    long wanted = liveBytes + Math.max(MIN_MARGIN_BYTES, liveBytes / 2);
    return maxBytes > 0 ? Math.min(wanted, maxBytes) : wanted;
  }

  /**
   * How long after start the watching begins: loading the management classes takes ~20 ms of CPU,
   * which would compete with the first requests, and there is nothing to cap before the first
   * minute of load.
   */
  static final Duration START_DELAY = Duration.ofSeconds(15);

  /**
   * Starts watching, once per process, on a background thread, {@link #START_DELAY} from now (the
   * management classes are loaded there, not on the start-up path). Returns at once.
   */
  static void watchInBackground() {
    if (WATCHING.compareAndSet(false, true)) {
      Thread.ofVirtual().name("svc-old-generation-cap").start(new DelayedWatch());
    }
  }

  /**
   * Waits {@link #START_DELAY}, then watches. A class, not a lambda: this starts beside the first
   * requests, and a lambda the start-up cache does not hold would have its class generated then.
   */
  private static final class DelayedWatch implements Runnable {
    @Override
    public void run() {
      try {
        Thread.sleep(START_DELAY);
      } catch (InterruptedException e) {
        return;
      }
      watch(MIN_INTERVAL);
    }
  }

  /**
   * Starts watching on this thread, with at least {@code minInterval} between two collections;
   * empty when the serial collector's old generation is absent.
   */
  static Optional<MemoryPoolMXBean> watch(Duration minInterval) {
    Optional<MemoryPoolMXBean> found =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .filter(p -> p.getName().equals(SERIAL_OLD_POOL))
            .filter(MemoryPoolMXBean::isUsageThresholdSupported)
            .findFirst();
    found.ifPresent(pool -> watch(pool, minInterval.toNanos()));
    return found;
  }

  private static void watch(MemoryPoolMXBean pool, long minIntervalNanos) {
    FullCollections collections = new FullCollections(pool, minIntervalNanos);
    pool.setUsageThreshold(threshold(pool.getUsage().getUsed(), pool.getUsage().getMax()));
    NotificationEmitter emitter = (NotificationEmitter) ManagementFactory.getMemoryMXBean();
    emitter.addNotificationListener(
        (notification, handback) -> collections.request(),
        notification ->
            notification.getType().equals(MemoryNotificationInfo.MEMORY_THRESHOLD_EXCEEDED)
                && notification.getUserData() instanceof CompositeData data
                && MemoryNotificationInfo.from(data).getPoolName().equals(pool.getName()),
        null);
  }

  /**
   * The full collections asked for, one at a time and {@code minIntervalNanos} apart. The JVM
   * notifies a crossing of the threshold only after the usage fell below it, so a crossing during a
   * collection, or one too soon after the last, is not dropped: the collecting thread looks again
   * before it ends.
   */
  private static final class FullCollections {
    private final MemoryPoolMXBean pool;
    private final long minIntervalNanos;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicLong last;

    FullCollections(MemoryPoolMXBean pool, long minIntervalNanos) {
      this.pool = pool;
      this.minIntervalNanos = minIntervalNanos;
      this.last = new AtomicLong(System.nanoTime() - minIntervalNanos);
    }

    void request() {
      if (running.compareAndSet(false, true)) {
        // off the JVM's notification thread: a full collection is a stop-the-world pause
        Thread.ofVirtual().name("svc-old-generation-cap").start(this::run);
      }
    }

    /**
     * Whether the usage is above the threshold now ({@link
     * MemoryPoolMXBean#isUsageThresholdExceeded} stays true until the JVM looks again, after the
     * next collection).
     */
    private boolean exceeded() {
      return pool.getUsage().getUsed() >= pool.getUsageThreshold();
    }

    private void run() {
      try {
        do {
          do {
            long wait = last.get() + minIntervalNanos - System.nanoTime();
            if (wait > 0) {
              Thread.sleep(Duration.ofNanos(wait));
            }
            collect(pool);
            last.set(System.nanoTime());
          } while (exceeded());
          running.set(false);
        } while (exceeded() && running.compareAndSet(false, true));
      } catch (InterruptedException e) {
        running.set(false);
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void collect(MemoryPoolMXBean pool) {
    long before = pool.getUsage().getCommitted();
    System.gc();
    MemoryUsage live = pool.getCollectionUsage();
    long used = live != null ? live.getUsed() : pool.getUsage().getUsed();
    pool.setUsageThreshold(threshold(used, pool.getUsage().getMax()));
    LOG.debug(
        "old generation collected",
        "live_mb",
        used / (1024 * 1024),
        "committed_mb_before",
        before / (1024 * 1024),
        "committed_mb_after",
        pool.getUsage().getCommitted() / (1024 * 1024));
  }
}
