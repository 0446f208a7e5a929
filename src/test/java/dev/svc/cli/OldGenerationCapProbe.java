package dev.svc.cli;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.time.Duration;

/**
 * Run in a JVM of its own by {@link OldGenerationCapTest}: makes objects that outlive a young
 * collection and then die (dead objects in the old generation, as a server under steady load makes
 * them), with or without {@link OldGenerationCap}, and prints the full collections and the old
 * generation's committed size.
 */
public final class OldGenerationCapProbe {
  private OldGenerationCapProbe() {}

  public static void main(String[] args) throws Exception {
    boolean capped = args.length > 0 && args[0].equals("capped");
    if (capped && OldGenerationCap.watch(Duration.ZERO).isEmpty()) {
      System.out.println("no serial old generation");
      return;
    }
    // a ring of recently made objects: each lives across a few young collections, then dies
    byte[][] ring = new byte[64][];
    for (int i = 0; i < 12_000; i++) {
      ring[i % ring.length] = new byte[32 * 1024];
      if (i % 1000 == 0) {
        Thread.sleep(20); // lets the notification's thread run
      }
    }
    Thread.sleep(500);
    long full = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc.getName().equals("MarkSweepCompact")) {
        full = gc.getCollectionCount();
      }
    }
    long committed = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getName().equals(OldGenerationCap.SERIAL_OLD_POOL)) {
        committed = pool.getUsage().getCommitted();
      }
    }
    System.out.println("full=" + full + " committed_mb=" + committed / (1024 * 1024));
  }
}
