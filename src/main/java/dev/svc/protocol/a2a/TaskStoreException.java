package dev.svc.protocol.a2a;

import dev.svc.SvcException;

/**
 * A shared task store could not be read or written (the database is down, refused the connection,
 * or answered with an error): a server fault, answered as an internal error that says so.
 */
public final class TaskStoreException extends SvcException {
  public TaskStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public TaskStoreException(String message) {
    super(message);
  }
}
