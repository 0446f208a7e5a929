package dev.svc.script;

import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.model.ScriptRef;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Runs TypeScript functions (handlers, transforms, auth plugins) in a sandbox. One interface, so
 * the engine can be swapped.
 */
public interface ScriptRunner extends AutoCloseable {

  /**
   * Calls {@code script} with {@code payload} and returns what it returned (its promise settled).
   * The caller receives the script's console output in its client log, and its request id goes with
   * every log line the script causes.
   *
   * @param toolName the tool the call serves (log tag {@code script:<tool>})
   * @param deadline when the call is stopped, waiting for an isolate included: the tool call's,
   *     which its other stages share
   * @param caller who calls (a tool call's caller)
   * @throws ScriptTimeoutException when the call is still running (or waiting) at its deadline
   * @throws ScriptFailedException when the script throws or exceeds its memory cap
   */
  JsonNode call(
      ScriptRef script, JsonNode payload, String toolName, Deadline deadline, Caller caller);

  /**
   * How the runner's isolates are used right now (for the {@code svc.script.*} metrics).
   *
   * @param busy isolates running a call
   * @param idle isolates waiting for one
   * @param max the most isolates the runner may run
   * @param pending calls waiting for an isolate (or for their tool's share of them)
   * @param memoryReservedBytes isolates alive in the process times their heap cap
   * @param memoryLimitBytes the ceiling of that figure ({@code SVC_SCRIPT_MEMORY_MB})
   * @param memoryUsedBytes what the isolates alive in the process hold in memory, as last measured
   */
  record Usage(
      int busy,
      int idle,
      int max,
      int pending,
      long memoryReservedBytes,
      long memoryLimitBytes,
      long memoryUsedBytes) {}

  default Optional<Usage> usage() {
    return Optional.empty();
  }

  @Override
  void close();
}
