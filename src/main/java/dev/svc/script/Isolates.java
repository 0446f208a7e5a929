package dev.svc.script;

import dev.svc.log.Log;
import dev.svc.model.Scripts;

/**
 * The isolates of one pool, as its workers and its callers' path share them: how one is made (with
 * the project's scripts), run and closed, the same on a worker and on a caller's thread; how many
 * there may be; the calls running on them; and the spare ones of the callers' path.
 *
 * @param limits how many isolates the pool may have, and how many it has
 * @param running the calls running on the pool's isolates
 * @param spares the callers' spare isolates, which a new worker may adopt
 */
record Isolates(
    ScriptEngine engine,
    Scripts scripts,
    IsolateLimits limits,
    RunningCalls running,
    SpareIsolates spares) {
  private static final Log LOG = Log.tagged("script");

  /** A new isolate with the project's scripts loaded. */
  ScriptIsolate create() {
    long started = System.nanoTime();
    ScriptIsolate isolate = engine.newIsolate(scripts);
    LOG.debug(
        "isolate ready",
        "ms",
        (System.nanoTime() - started) / 1_000_000,
        "isolates",
        limits.count());
    return isolate;
  }

  /**
   * Runs the call. A script that threw leaves its stack in the debug log (not in the result): the
   * caller writes it, knowing which values it must leave out (dev.svc.runtime.ScriptTelemetry).
   */
  static String call(ScriptIsolate isolate, ScriptCall call) {
    return isolate.call(call);
  }

  /** Closes the isolate, if there is one. */
  static void close(ScriptIsolate isolate) {
    if (isolate != null) {
      isolate.close();
    }
  }
}
