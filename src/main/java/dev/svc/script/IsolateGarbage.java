package dev.svc.script;

/**
 * When an isolate should collect all its garbage (V8's {@code LowMemoryNotification}): once it
 * holds {@link #COLLECT_AFTER_BYTES} more than after its last full collection, or, when it held
 * more than that then, twice as much, so that a collection's cost, which grows with what survives
 * it, stays in proportion to the garbage. V8 by itself lets a small old generation grow to several
 * times what survives; three isolates under load held ~15 MB more that way (bench/RESULTS.md,
 * "Isolates passed on, and their garbage collected"). Used on the isolate's own thread only.
 */
final class IsolateGarbage {
  static final long COLLECT_AFTER_BYTES = 4L * 1024 * 1024;

  /** What the isolate held after its last full collection, or when first measured; -1 before. */
  private long heldAfterCollection = -1;

  /**
   * Whether an isolate that holds {@code held} bytes now should collect all its garbage; the first
   * measurement is its starting point.
   */
  boolean due(long held) {
    if (heldAfterCollection < 0) {
      heldAfterCollection = held;
      return false;
    }
    return held - heldAfterCollection >= Math.max(COLLECT_AFTER_BYTES, heldAfterCollection);
  }

  /** The isolate collected all its garbage and holds {@code held} bytes now. */
  void collected(long held) {
    heldAfterCollection = held;
  }
}
