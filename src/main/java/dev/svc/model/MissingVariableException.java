package dev.svc.model;

import dev.svc.SvcException;
import dev.svc.diagnostic.Origin;

/** A {@code {{ env.NAME }}} placeholder names a variable that is not set. */
public final class MissingVariableException extends SvcException {
  private final String variable;
  private final Origin origin;

  public MissingVariableException(String variable, Origin origin) {
    super(origin + ": environment variable " + variable + " is not set");
    this.variable = variable;
    this.origin = origin;
  }

  public String variable() {
    return variable;
  }

  public Origin origin() {
    return origin;
  }
}
