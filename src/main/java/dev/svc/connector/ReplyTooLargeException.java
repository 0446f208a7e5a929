package dev.svc.connector;

import java.io.IOException;

/**
 * A database's reply that passed its ceiling in bytes while a driver read it from the socket
 * ({@link RedisReplyBound}, {@link MysqlReplyBound}). Thrown inside the driver's read, so the
 * driver drops the connection with the rest of the reply; the connector finds it among the causes
 * of the driver's failure and answers with the ceiling's refusal.
 */
final class ReplyTooLargeException extends IOException {
  private final long ceilingBytes;

  ReplyTooLargeException(long ceilingBytes) {
    super("the reply passed " + ceilingBytes + " bytes");
    this.ceilingBytes = ceilingBytes;
  }

  /**
   * The message alone: a driver that wraps this in an exception of its own takes its text from
   * here, and the text reaches svc's logs and errors, where a class name says nothing.
   */
  @Override
  public String toString() {
    return getMessage();
  }

  long ceilingBytes() {
    return ceilingBytes;
  }

  /** The first cause of {@code failure} that is a reply past its ceiling, or null. */
  static ReplyTooLargeException among(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof ReplyTooLargeException tooLarge) {
        return tooLarge;
      }
    }
    return null;
  }
}
