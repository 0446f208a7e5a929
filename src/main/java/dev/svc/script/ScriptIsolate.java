package dev.svc.script;

/**
 * One sandboxed engine instance with its own heap. Not thread-safe: one thread uses it at a time
 * (the pool's worker that created it), except {@link #interrupt}.
 */
public interface ScriptIsolate extends AutoCloseable {

  /**
   * Runs one call to completion (its promise settled) on the calling thread.
   *
   * @return the JSON text of what the script returned
   * @throws ScriptFailedException when the script throws, passes its deadline or its memory cap
   */
  String call(ScriptCall call);

  /**
   * Whether the isolate can serve another call. False after a call hit the memory cap, was stopped
   * at its deadline or interrupted: its heap may hold a half-done state, so the pool replaces it.
   */
  boolean isReusable();

  /**
   * Stops {@code call} if it is the one running, from any thread (its caller gave up on it). A call
   * that already ended, or another call running by now, is left alone.
   */
  void interrupt(ScriptCall call);

  @Override
  void close();
}
