package dev.svc.protocol.a2a;

import dev.svc.SvcException;

/**
 * This instance already runs {@code agents.tasks.max_running} tasks and has {@code max_waiting}
 * more waiting for a turn: a new task is refused, as an error the client may retry.
 */
final class TooManyTasksException extends SvcException {
  TooManyTasksException(String message) {
    super(message);
  }
}
