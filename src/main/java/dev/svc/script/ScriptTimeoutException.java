package dev.svc.script;

import java.time.Duration;

/**
 * A script was still running at its deadline and was stopped, or it could not start before its
 * deadline (no isolate came free: see {@link #notStarted}).
 */
public final class ScriptTimeoutException extends ScriptFailedException {
  private static final long serialVersionUID = 1L;

  /** Why the call never started; empty when it ran. */
  private final String notStartedBecause;

  public ScriptTimeoutException(Duration timeout) {
    super("the script ran longer than " + seconds(timeout));
    this.notStartedBecause = "";
  }

  private ScriptTimeoutException(Duration timeout, String because) {
    super(notStartedMessage(timeout, because));
    this.notStartedBecause = because;
  }

  /** The call waited for an isolate until its deadline, and never ran; {@code because} says why. */
  public static ScriptTimeoutException notStarted(Duration timeout, String because) {
    return new ScriptTimeoutException(timeout, because);
  }

  /**
   * The message for a caller whose whole call had {@code timeout} (a tool call's scripts share its
   * deadline, so the script's own timeout is the time left of it).
   */
  public String messageFor(Duration timeout) {
    return notStartedBecause.isEmpty()
        ? "the script ran longer than " + seconds(timeout)
        : notStartedMessage(timeout, notStartedBecause);
  }

  private static String notStartedMessage(Duration timeout, String because) {
    return "the script could not start within " + seconds(timeout) + ": " + because;
  }

  /** {@code 30 s}, or {@code 250 ms} under a second. */
  public static String seconds(Duration timeout) {
    long millis = timeout.toMillis();
    return millis < 1000 ? millis + " ms" : Math.round(millis / 1000.0) + " s";
  }
}
