package dev.svc.script;

import dev.svc.model.ScriptRef;
import java.time.Duration;
import tools.jackson.databind.JsonNode;

/** The runner used until the TypeScript engine lands: every call fails with a clear message. */
public final class UnavailableScriptRunner implements ScriptRunner {
  @Override
  public JsonNode call(ScriptRef script, JsonNode payload, String toolName, Duration timeout) {
    throw new ScriptFailedException(
        "TypeScript scripts are not available in this build of svc yet (" + script + ")");
  }

  @Override
  public void close() {}
}
