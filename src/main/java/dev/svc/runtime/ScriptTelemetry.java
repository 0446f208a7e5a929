package dev.svc.runtime;

import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.model.ScriptRef;
import dev.svc.script.ScriptFailedException;
import dev.svc.script.ScriptRunner;
import dev.svc.script.ScriptTimeoutException;
import dev.svc.telemetry.SvcMetrics;
import tools.jackson.databind.JsonNode;

/**
 * Runs a script call inside the {@code svc.script.call.duration} metric: how long a tool's handler,
 * transforms and auth plugin take, waiting for an isolate included.
 */
final class ScriptTelemetry {
  /** Where in a tool call a script runs. */
  enum Stage {
    HANDLER("handler", "handler"),
    INPUT("input", "input transform"),
    OUTPUT("output", "output transform"),
    AUTH("auth", "auth");

    /** The {@code svc.script.stage} label. */
    final String label;

    /** The name of the stage's span in a tool call's trace. */
    final String spanName;

    Stage(String label, String spanName) {
      this.label = label;
      this.spanName = spanName;
    }
  }

  private ScriptTelemetry() {}

  static JsonNode call(
      ScriptRunner scripts,
      Stage stage,
      ScriptRef script,
      JsonNode payload,
      String tool,
      Deadline deadline,
      Caller caller) {
    long started = System.nanoTime();
    String errorType = "";
    try {
      return scripts.call(script, payload, tool, deadline, caller);
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
      SvcMetrics.SCRIPT_DURATION.recordSince(started, tool, stage.label, errorType);
    }
  }
}
