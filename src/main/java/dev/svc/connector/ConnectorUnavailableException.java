package dev.svc.connector;

import dev.svc.SvcException;

/** The database cannot be reached or refused the connection: a server fault, not a tool error. */
public final class ConnectorUnavailableException extends SvcException {
  public ConnectorUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  public ConnectorUnavailableException(String message) {
    super(message);
  }
}
