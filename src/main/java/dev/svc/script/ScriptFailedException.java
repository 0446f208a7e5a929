package dev.svc.script;

import dev.svc.SvcException;

/** A script threw, ran past its deadline or its memory cap. The message is safe for callers. */
public final class ScriptFailedException extends SvcException {
  public ScriptFailedException(String message) {
    super(message);
  }

  public ScriptFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
