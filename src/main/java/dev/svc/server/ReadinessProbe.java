package dev.svc.server;

import java.util.Map;

/**
 * What {@code /ready} asks besides whether the server accepts work: the adapters that cannot be
 * reached now. Called on every probe, so it must answer at once (from a cached check).
 */
@FunctionalInterface
public interface ReadinessProbe {
  /** Nothing to check: ready whenever the server accepts work. */
  ReadinessProbe NONE = Map::of;

  /**
   * The unreachable adapters by name, each with a short reason that names no address or credential;
   * empty when every adapter is reachable.
   */
  Map<String, String> unreachableAdapters();
}
