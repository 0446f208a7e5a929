package dev.svc.script;

import dev.svc.SvcException;

/**
 * The script engine failed, or cannot start or load a bundle: a server fault, unlike a {@link
 * ScriptFailedException}, which is the script's own failure. The isolate it happened in is not used
 * again.
 */
public final class ScriptEngineException extends SvcException {
  public ScriptEngineException(String message) {
    super(message);
  }

  public ScriptEngineException(String message, Throwable cause) {
    super(message, cause);
  }
}
