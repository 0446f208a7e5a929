package dev.svc.script;

import dev.svc.call.Deadline;
import dev.svc.model.ScriptRef;

/**
 * One call of a script.
 *
 * @param payload the JSON text of the argument ({@code {inputs, tool}}, …)
 * @param tool the tool the call serves, for logs
 * @param deadline when the call is stopped; its timeout words the timeout message
 * @param host what the script's {@code console} and {@code fetch} reach
 */
public record ScriptCall(
    ScriptRef script, String payload, String tool, Deadline deadline, ScriptHost host) {}
