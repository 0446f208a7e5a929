package dev.svc.script;

import java.time.Duration;

/** A script was still running at its deadline and was stopped. */
public final class ScriptTimeoutException extends ScriptFailedException {
  public ScriptTimeoutException(Duration timeout) {
    super("the script ran longer than " + seconds(timeout));
  }

  /** {@code 30 s}, or {@code 250 ms} under a second. */
  public static String seconds(Duration timeout) {
    long millis = timeout.toMillis();
    return millis < 1000 ? millis + " ms" : Math.round(millis / 1000.0) + " s";
  }
}
