package dev.svc.log;

import java.util.Optional;

/** Values every log line of a request carries; bound with {@link ScopedValue#where}. */
public final class LogContext {
  private LogContext() {}

  /** The id of the request being served. */
  public static final ScopedValue<String> REQUEST_ID = ScopedValue.newInstance();

  /** The trace and span of the current thread, when tracing is on. */
  @FunctionalInterface
  public interface TraceIds {
    Optional<Ids> current();

    record Ids(String traceId, String spanId) {}
  }

  private static volatile Optional<TraceIds> traceIds = Optional.empty();

  /** Set by the tracer when tracing starts (lines then carry trace_id and span_id), or cleared. */
  public static void traceIds(Optional<TraceIds> source) {
    traceIds = source;
  }

  static Optional<TraceIds.Ids> currentTrace() {
    Optional<TraceIds> source = traceIds;
    return source.isEmpty() ? Optional.empty() : source.get().current();
  }
}
