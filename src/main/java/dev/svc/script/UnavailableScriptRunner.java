package dev.svc.script;

import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.model.ScriptRef;
import tools.jackson.databind.JsonNode;

/**
 * A runner that runs nothing: every call fails with a clear message. For runtimes that are known to
 * have no scripts (tests of other parts); serving uses {@link PooledScriptRunner}.
 */
public final class UnavailableScriptRunner implements ScriptRunner {
  @Override
  public JsonNode call(
      ScriptRef script, JsonNode payload, String toolName, Deadline deadline, Caller caller) {
    throw new ScriptFailedException("scripts cannot run here (" + script + ")");
  }

  @Override
  public void close() {}
}
