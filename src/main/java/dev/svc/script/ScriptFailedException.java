package dev.svc.script;

import dev.svc.SvcException;
import dev.svc.log.SecretValues;
import java.util.Collection;
import java.util.Optional;

/**
 * A script threw, ran past its deadline or its memory cap. The message is one line, safe to show
 * the caller; the script's stack trace (when it threw) is only for the debug log.
 */
public class ScriptFailedException extends SvcException {
  private final String scriptStack;

  public ScriptFailedException(String message) {
    this(message, "");
  }

  public ScriptFailedException(String message, Throwable cause) {
    super(message, cause);
    this.scriptStack = "";
  }

  /**
   * @param scriptStack the JavaScript stack trace of what the script threw; empty when unknown
   */
  public ScriptFailedException(String message, String scriptStack) {
    super(oneLine(message));
    this.scriptStack = scriptStack;
  }

  /** The script's stack trace, for the debug log only. */
  public Optional<String> scriptStack() {
    return scriptStack.isBlank() ? Optional.empty() : Optional.of(scriptStack);
  }

  /**
   * The same failure with {@code secrets} taken out of its message and stack (an auth plugin's
   * policy values, the credentials its caller sent), which a script may quote when it throws. The
   * subclasses (time-outs, waits) say what svc saw, not what the script threw: they are kept.
   */
  public ScriptFailedException without(Collection<String> secrets) {
    if (secrets.isEmpty() || getClass() != ScriptFailedException.class) {
      return this;
    }
    ScriptFailedException shown =
        new ScriptFailedException(
            SecretValues.removedFrom(getMessage(), secrets),
            SecretValues.removedFrom(scriptStack, secrets));
    shown.setStackTrace(getStackTrace());
    return shown;
  }

  /**
   * Messages are one line and bounded: a script may throw a multi-line or huge message (or an auth
   * plugin give such a reason).
   */
  public static String oneLine(String message) {
    String line = message.strip().replaceAll("\\s*\\R\\s*", " ");
    return line.length() > 2000 ? line.substring(0, 2000) + "…" : line;
  }
}
