package dev.svc.connector;

import dev.svc.SvcException;

/**
 * The database rejected a statement, or it ran past its deadline. The message is one line a model
 * can act on: it never holds connection strings or bound values.
 */
public sealed class StatementFailedException extends SvcException permits ResultRefusedException {
  private final boolean timedOut;

  public StatementFailedException(String message, boolean timedOut, Throwable cause) {
    super(message, cause);
    this.timedOut = timedOut;
  }

  public boolean timedOut() {
    return timedOut;
  }
}
