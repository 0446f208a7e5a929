package dev.svc.connector;

import dev.svc.SvcException;

/**
 * The database cannot be reached or refused the connection: a server fault, not a tool error. Its
 * message never quotes an option's value: at start the values come from {@code {{ env.… }}}
 * (literal ones were checked when the project was compiled), and svc never prints those.
 */
public final class ConnectorUnavailableException extends SvcException {
  /** The diagnostic code a failure at start is reported with, unless it says otherwise. */
  public static final String UNAVAILABLE = "adapter-unavailable";

  private final String code;

  public ConnectorUnavailableException(String message, Throwable cause) {
    super(message, cause);
    this.code = UNAVAILABLE;
  }

  public ConnectorUnavailableException(String message) {
    super(message);
    this.code = UNAVAILABLE;
  }

  private ConnectorUnavailableException(String code, String message) {
    super(message);
    this.code = code;
  }

  private ConnectorUnavailableException(String code, String message, Throwable cause) {
    super(message, cause);
    this.code = code;
  }

  /** The same failure, with the same code, worded otherwise (bound values taken out). */
  ConnectorUnavailableException withMessage(String message, Throwable cause) {
    return new ConnectorUnavailableException(code, message, cause);
  }

  /** A connection string whose scheme svc does not support ({@code unsupported-scheme}). */
  public static ConnectorUnavailableException unsupportedScheme(String message) {
    return new ConnectorUnavailableException("unsupported-scheme", message);
  }

  /** The diagnostic code for a failure at start: {@code adapter-unavailable} by default. */
  public String code() {
    return code;
  }
}
