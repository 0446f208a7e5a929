package dev.svc.script;

/**
 * A script is left waiting only for answers its client gives in a later round (2026-07-28: its
 * questions go out with an {@code input_required} result and the call runs again when the client
 * retries). A subclass of {@link ScriptFailedException} so that the isolate stays in use; the tool
 * pipeline turns it into {@link dev.svc.call.InputRequiredException}.
 */
public final class ScriptWaitsForClientException extends ScriptFailedException {
  public ScriptWaitsForClientException() {
    super("the script waits for the client's answers to its questions");
  }
}
