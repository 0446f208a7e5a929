package dev.svc.log;

/** Values every log line of a request carries; bound with {@link ScopedValue#where}. */
public final class LogContext {
  private LogContext() {}

  /** The id of the request being served. */
  public static final ScopedValue<String> REQUEST_ID = ScopedValue.newInstance();
}
