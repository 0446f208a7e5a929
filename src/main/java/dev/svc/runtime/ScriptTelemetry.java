package dev.svc.runtime;

import dev.svc.model.ScriptRef;
import dev.svc.script.ScriptFailedException;
import dev.svc.script.ScriptRunner;
import dev.svc.script.ScriptTimeoutException;
import dev.svc.telemetry.SvcMetrics;
import java.time.Duration;
import tools.jackson.databind.JsonNode;

/**
 * Runs a script call inside the {@code svc.script.call.duration} metric: how long a tool's handler,
 * transforms and auth plugin take, waiting for an isolate included.
 */
final class ScriptTelemetry {
  /** {@code svc.script.stage} of a handler. */
  static final String HANDLER = "handler";

  /** {@code svc.script.stage} of an input transform. */
  static final String INPUT = "input";

  /** {@code svc.script.stage} of an output transform. */
  static final String OUTPUT = "output";

  /** {@code svc.script.stage} of an auth plugin. */
  static final String AUTH = "auth";

  private ScriptTelemetry() {}

  static JsonNode call(
      ScriptRunner scripts,
      String stage,
      ScriptRef script,
      JsonNode payload,
      String tool,
      Duration timeout) {
    long started = System.nanoTime();
    String errorType = "";
    try {
      return scripts.call(script, payload, tool, timeout);
    } catch (ScriptTimeoutException e) {
      errorType = "timeout";
      throw e;
    } catch (ScriptFailedException e) {
      errorType = "script_failed";
      throw e;
    } catch (RuntimeException e) {
      errorType = e.getClass().getName();
      throw e;
    } finally {
      SvcMetrics.SCRIPT_DURATION.recordSince(started, tool, stage, errorType);
    }
  }
}
