package dev.svc.protocol.a2a;

import dev.svc.SvcException;

/**
 * The in-memory task store cannot take a new task: the tasks still running already hold its whole
 * byte budget (finished ones were let go first). Answered as an error the client may retry.
 */
public final class TaskStoreFullException extends SvcException {
  public TaskStoreFullException(String message) {
    super(message);
  }
}
