package dev.svc.runtime;

import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.connector.PoolUsage;
import dev.svc.log.Log;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Whether the adapters being served are reachable, for {@code /ready}: each connector's own {@link
 * Connector#check} (a {@code SELECT 1}, a {@code PING}) with a short deadline, run at most once
 * every {@link #INTERVAL} and only while something asks. A probe never waits for a check: it reads
 * the last result and, when that is older than the interval, starts a new check in the background
 * (the next probe sees it). So a probe costs nothing, and a database sees at most one check per
 * adapter per interval whatever the number of probes.
 *
 * <p>A check that fails while the adapter's pool has every connection in use counts as reachable:
 * the calls holding those connections are the database answering, and a busy instance taken out of
 * rotation would only move its load to the others.
 *
 * <p>At start every adapter is reachable: the instance checked each one before it began serving.
 */
public final class AdapterReadiness {
  /** How often, at most, the adapters are checked. */
  public static final Duration INTERVAL = Duration.ofSeconds(5);

  /** How long one adapter's check may take before it counts as unreachable. */
  public static final Duration CHECK_TIMEOUT = Duration.ofSeconds(2);

  private static final Log LOG = Log.tagged("db");

  private final Supplier<Map<String, Connector>> connectors;
  private final LongSupplier clock;
  private final long interval;
  private final Duration checkTimeout;
  private final AtomicBoolean checking = new AtomicBoolean();
  private volatile Snapshot last;

  /** Why each unreachable adapter is, by adapter name, as of {@code checkedAt}. */
  private record Snapshot(Map<String, String> unreachable, long checkedAt) {}

  /** A failed check: the reason {@code /ready} shows, and the error for the log. */
  private record Failure(String reason, String detail) {}

  /** Checks the connectors {@code connectors} gives (the current runtime's, across reloads). */
  public AdapterReadiness(Supplier<Map<String, Connector>> connectors) {
    this(connectors, System::nanoTime, INTERVAL, CHECK_TIMEOUT);
  }

  AdapterReadiness(
      Supplier<Map<String, Connector>> connectors,
      LongSupplier clock,
      Duration interval,
      Duration checkTimeout) {
    this.connectors = connectors;
    this.clock = clock;
    this.interval = interval.toNanos();
    this.checkTimeout = checkTimeout;
    this.last = new Snapshot(Map.of(), clock.getAsLong());
  }

  /**
   * The adapters found unreachable by the last check, by name, each with a short reason that holds
   * no address or credential ({@code unreachable}, {@code check timed out}); empty when all are
   * reachable. Answers at once; starts a check in the background when the last one is stale.
   */
  public Map<String, String> unreachable() {
    Snapshot snapshot = last;
    if (isStale(snapshot) && checking.compareAndSet(false, true)) {
      if (isStale(last)) { // a check may have ended since this probe read the snapshot
        Thread.ofVirtual().name("svc-readiness").start(this::checkNow);
      } else {
        checking.set(false);
      }
    }
    return snapshot.unreachable();
  }

  private boolean isStale(Snapshot snapshot) {
    return clock.getAsLong() - snapshot.checkedAt() >= interval;
  }

  /** Checks every adapter now, in parallel, and keeps the result. */
  void checkNow() {
    try {
      Map<String, Connector> open = connectors.get();
      Map<String, CompletableFuture<Optional<Failure>>> checks = new LinkedHashMap<>();
      for (Map.Entry<String, Connector> adapter : open.entrySet()) {
        CompletableFuture<Optional<Failure>> check = new CompletableFuture<>();
        Thread.ofVirtual()
            .name("svc-readiness-" + adapter.getKey())
            .start(() -> check.complete(failure(adapter.getValue())));
        checks.put(adapter.getKey(), check);
      }
      Map<String, String> before = last.unreachable();
      Map<String, String> unreachable = new TreeMap<>();
      checks.forEach((name, check) ->
          check
              .join()
              .ifPresent(failure -> {
                unreachable.put(name, failure.reason());
                if (!before.containsKey(name)) {
                  LOG.warn(
                      "adapter not ready: /ready answers 503",
                      "adapter",
                      name,
                      "error",
                      failure.detail());
                }
              }));
      before.keySet().stream()
          .filter(name -> !unreachable.containsKey(name) && open.containsKey(name))
          .forEach(name -> LOG.info("adapter ready again", "adapter", name));
      last = new Snapshot(Map.copyOf(unreachable), clock.getAsLong());
    } finally {
      checking.set(false);
    }
  }

  private Optional<Failure> failure(Connector connector) {
    Deadline deadline = Deadline.after(checkTimeout);
    try {
      connector.check(deadline);
      return Optional.empty();
    } catch (RuntimeException e) {
      if (connector.pool().filter(AdapterReadiness::allInUse).isPresent()) {
        return Optional.empty();
      }
      return Optional.of(
          new Failure(
              deadline.passed() ? "check timed out" : "unreachable",
              e instanceof ConnectorUnavailableException
                  ? String.valueOf(e.getMessage())
                  : e.getClass().getSimpleName() + ": " + e.getMessage()));
    }
  }

  private static boolean allInUse(PoolUsage pool) {
    return pool.max() > 0 && pool.used() >= pool.max();
  }
}
