package dev.svc.runtime;

import dev.svc.connector.ResultMemory;
import dev.svc.telemetry.SvcMetrics;
import java.util.List;
import java.util.function.Supplier;

/**
 * The gauges of a serving instance, read from whichever runtime serves at collection time (so a
 * reload needs no re-registration): JDBC pool usage per adapter, script isolates, result cache,
 * result memory.
 */
public final class RuntimeMetrics implements AutoCloseable {
  private final List<AutoCloseable> registrations;

  private RuntimeMetrics(List<AutoCloseable> registrations) {
    this.registrations = registrations;
  }

  public static RuntimeMetrics register(Supplier<ProjectRuntime> runtime) {
    return new RuntimeMetrics(
        List.of(
            SvcMetrics.POOL_CONNECTIONS.register(sink ->
                runtime
                    .get()
                    .connectors()
                    .forEach((adapter, connector) ->
                        connector
                            .pool()
                            .ifPresent(pool -> {
                              sink.sample(pool.used(), adapter, "used");
                              sink.sample(pool.idle(), adapter, "idle");
                            }))),
            SvcMetrics.POOL_MAX.register(sink ->
                runtime
                    .get()
                    .connectors()
                    .forEach((adapter, connector) ->
                        connector.pool().ifPresent(pool -> sink.sample(pool.max(), adapter)))),
            SvcMetrics.POOL_PENDING.register(sink ->
                runtime
                    .get()
                    .connectors()
                    .forEach((adapter, connector) ->
                        connector.pool().ifPresent(pool -> sink.sample(pool.pending(), adapter)))),
            SvcMetrics.SCRIPT_ISOLATES.register(sink ->
                runtime
                    .get()
                    .scripts()
                    .usage()
                    .ifPresent(usage -> {
                      sink.sample(usage.busy(), "busy");
                      sink.sample(usage.idle(), "idle");
                    })),
            SvcMetrics.SCRIPT_ISOLATES_MAX.register(sink ->
                runtime.get().scripts().usage().ifPresent(usage -> sink.sample(usage.max()))),
            SvcMetrics.SCRIPT_PENDING.register(sink ->
                runtime.get().scripts().usage().ifPresent(usage -> sink.sample(usage.pending()))),
            SvcMetrics.SCRIPT_MEMORY_RESERVED.register(sink ->
                runtime
                    .get()
                    .scripts()
                    .usage()
                    .ifPresent(usage -> sink.sample(usage.memoryReservedBytes()))),
            SvcMetrics.SCRIPT_MEMORY_USED.register(sink ->
                runtime
                    .get()
                    .scripts()
                    .usage()
                    .ifPresent(usage -> sink.sample(usage.memoryUsedBytes()))),
            SvcMetrics.SCRIPT_MEMORY_LIMIT.register(sink ->
                runtime
                    .get()
                    .scripts()
                    .usage()
                    .ifPresent(usage -> sink.sample(usage.memoryLimitBytes()))),
            SvcMetrics.RESULT_MEMORY_RESERVED.register(
                sink -> sink.sample(ResultMemory.process().reservedBytes())),
            SvcMetrics.RESULT_MEMORY_LIMIT.register(
                sink -> sink.sample(ResultMemory.process().budgetBytes())),
            SvcMetrics.CACHE_ENTRIES.register(sink -> sink.sample(runtime.get().cache().entries())),
            SvcMetrics.CACHE_USAGE.register(sink -> sink.sample(runtime.get().cache().weight()))));
  }

  @Override
  public void close() {
    for (AutoCloseable registration : registrations) {
      try {
        registration.close();
      } catch (Exception e) {
        // removing a gauge source cannot fail
      }
    }
  }
}
