package dev.svc;

/** Base type of every exception svc throws on purpose. All are unchecked. */
public class SvcException extends RuntimeException {
  public SvcException(String message) {
    super(message);
  }

  public SvcException(String message, Throwable cause) {
    super(message, cause);
  }
}
