package dev.svc.telemetry;

/** While open, a span is the current one on this thread; close it in the reverse order. */
@FunctionalInterface
public interface Scope extends AutoCloseable {
  Scope NOOP = () -> {};

  @Override
  void close();
}
