package dev.svc.script;

import dev.svc.model.ScriptRef;
import java.time.Duration;
import tools.jackson.databind.JsonNode;

/**
 * Runs TypeScript functions (handlers, transforms, auth plugins) in a sandbox. One interface, so
 * the engine can be swapped.
 */
public interface ScriptRunner extends AutoCloseable {

  /**
   * Calls {@code script} with {@code payload} and returns what it returned (its promise settled).
   *
   * @throws ScriptFailedException when the script throws, times out or exceeds its memory cap
   */
  JsonNode call(ScriptRef script, JsonNode payload, String toolName, Duration timeout);

  @Override
  void close();
}
