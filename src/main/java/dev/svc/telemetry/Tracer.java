package dev.svc.telemetry;

import java.util.Optional;
import java.util.function.Function;

/**
 * Starts spans. {@link #NOOP} (tracing off) returns {@link Span#NOOP} from every method, so call
 * sites need no checks; {@code OtelTelemetry} is the OpenTelemetry implementation.
 */
public interface Tracer {
  Tracer NOOP =
      new Tracer() {
        @Override
        public boolean enabled() {
          return false;
        }

        @Override
        public Span start(SpanKind kind, String name) {
          return Span.NOOP;
        }

        @Override
        public Span start(SpanKind kind, String operation, String target) {
          return Span.NOOP;
        }

        @Override
        public Span startChildOf(Span parent, SpanKind kind, String name) {
          return Span.NOOP;
        }

        @Override
        public Span startRemote(
            SpanKind kind,
            String name,
            Function<String, Optional<String>> carrier,
            boolean linkCurrent) {
          return Span.NOOP;
        }

        @Override
        public Span current() {
          return Span.NOOP;
        }
      };

  boolean enabled();

  /** A span whose parent is the current one (or a new trace). */
  Span start(SpanKind kind, String name);

  /**
   * A span named {@code operation target} (or {@code operation} when the target is empty); the name
   * is only built when tracing is on.
   */
  Span start(SpanKind kind, String operation, String target);

  /** A span whose parent is {@code parent}, e.g. one captured on another thread. */
  Span startChildOf(Span parent, SpanKind kind, String name);

  /**
   * A span whose parent is the W3C trace context ({@code traceparent}, {@code tracestate}) read
   * from {@code carrier}, or the current span when the carrier has none.
   *
   * @param linkCurrent also link the current span (MCP: the HTTP span) when the parent is remote
   */
  Span startRemote(
      SpanKind kind, String name, Function<String, Optional<String>> carrier, boolean linkCurrent);

  /** The current span of this thread ({@link Span#NOOP} when none). */
  Span current();
}
