package dev.svc.runtime;

import dev.svc.connector.Connectors;
import dev.svc.json.Json;
import dev.svc.model.Adapter;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Model;
import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Set;

/**
 * The class and library set-up a start would otherwise meet on its critical path, done on a thread
 * of its own while the start reads its settings and makes its servers: SQLite's native library for
 * the adapters to open, and {@link BigDecimal}'s static set-up (it computes 5^65536, ~15 ms on a
 * small machine), which the first JSON value node (the output schemas') pulls in. Nothing here is
 * needed for correctness: what the thread has not done yet, the start does.
 */
public final class StartPreload {
  private StartPreload() {}

  /** Starts the preload for {@code model}'s adapters; returns at once. */
  public static void inBackground(Model model) {
    Set<ConnectorKind> kinds = EnumSet.noneOf(ConnectorKind.class);
    for (Adapter adapter : model.usedAdapters()) {
      kinds.add(adapter.connector());
    }
    Thread.ofPlatform()
        .daemon()
        .name("svc-preload")
        .start(() -> {
          kinds.forEach(Connectors::preload);
          Json.NODES.numberNode(BigDecimal.ONE);
        });
  }
}
