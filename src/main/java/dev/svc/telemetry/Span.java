package dev.svc.telemetry;

/**
 * One timed operation of a trace. Attribute keys follow the OpenTelemetry semantic conventions
 * where one exists ({@code mcp.method.name}, {@code db.system.name}, …). Never put secrets or bound
 * values in attributes. With tracing off every span is {@link #NOOP}: no allocation, no work.
 */
public interface Span {
  Span NOOP =
      new Span() {
        @Override
        public Span set(String key, String value) {
          return this;
        }

        @Override
        public Span set(String key, long value) {
          return this;
        }

        @Override
        public Span set(String key, boolean value) {
          return this;
        }

        @Override
        public Span fail(String errorType, String description) {
          return this;
        }

        @Override
        public Scope activate() {
          return Scope.NOOP;
        }

        @Override
        public void end() {}

        @Override
        public boolean isRecording() {
          return false;
        }
      };

  Span set(String key, String value);

  Span set(String key, long value);

  Span set(String key, boolean value);

  /**
   * Marks the operation failed: {@code error.type} and an ERROR status with {@code description} (a
   * message safe to show: no values, no connection strings).
   */
  Span fail(String errorType, String description);

  /** Makes this span the current one (the parent of spans started on this thread) until closed. */
  Scope activate();

  void end();

  /** False for {@link #NOOP} and spans the sampler dropped: skip building costly attributes. */
  boolean isRecording();
}
