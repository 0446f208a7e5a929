package dev.svc.script;

import dev.svc.model.ScriptRef;
import java.time.Duration;

/**
 * One call of a script.
 *
 * @param payload the JSON text of the argument ({@code {inputs, tool}}, …)
 * @param tool the tool the call serves, for logs
 * @param timeout the time the call was given, for the timeout message
 * @param deadlineNanos {@link System#nanoTime()} at which the call is stopped
 * @param host what the script's {@code console} and {@code fetch} reach
 */
public record ScriptCall(
    ScriptRef script,
    String payload,
    String tool,
    Duration timeout,
    long deadlineNanos,
    ScriptHost host) {

  public long remainingNanos() {
    return deadlineNanos - System.nanoTime();
  }
}
