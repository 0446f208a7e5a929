package dev.svc.runtime;

import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.log.Log;
import dev.svc.model.ScriptRef;
import dev.svc.script.ScriptFailedException;
import dev.svc.script.ScriptRunner;
import dev.svc.script.ScriptTimeoutException;
import dev.svc.telemetry.SvcMetrics;
import java.util.Collection;
import tools.jackson.databind.JsonNode;

/**
 * Runs a script call inside the {@code svc.script.call.duration} metric: how long a tool's handler,
 * transforms and auth plugin take, waiting for an isolate included. A script that threw leaves its
 * message and stack in the debug log, without the values the caller names as secrets.
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

  private static final Log LOG = Log.tagged("script");

  private ScriptTelemetry() {}

  static JsonNode call(
      ScriptRunner scripts,
      Stage stage,
      ScriptRef script,
      JsonNode payload,
      String tool,
      Deadline deadline,
      Caller caller,
      Collection<String> secrets) {
    long started = System.nanoTime();
    String errorType = "";
    try {
      return scripts.call(script, payload, tool, deadline, caller);
    } catch (ScriptTimeoutException e) {
      errorType = "timeout";
      throw e;
    } catch (ScriptFailedException e) {
      errorType = "script_failed";
      ScriptFailedException shown = e.without(secrets);
      shown
          .scriptStack()
          .ifPresent(stack ->
              LOG.child(tool).debug("script failed", "error", shown.getMessage(), "stack", stack));
      throw shown;
    } catch (RuntimeException e) {
      errorType = e.getClass().getName();
      throw e;
    } finally {
      SvcMetrics.SCRIPT_DURATION.recordSince(started, tool, stage.label, errorType);
    }
  }
}
