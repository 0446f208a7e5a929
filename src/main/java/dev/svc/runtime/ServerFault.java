package dev.svc.runtime;

/**
 * A server fault as its caller is told it: a short message that is safe to show (no stack trace, no
 * connection string, no bound value) and the id of the request, under which the log holds the
 * details. MCP and A2A clients get it as a JSON-RPC {@code -32603} error, an agent's model as the
 * answer of a tool call, an A2A client as the failure message of a task: all word it as {@link
 * #text()} does.
 *
 * <p>It lives here, below {@code agent} and {@code protocol}, because agents (which may not import
 * the protocols) tell their models of faults too.
 */
public record ServerFault(String message, String requestId) {

  /** The message with the request id, e.g. {@code internal error (request id 3f9c0a1b2c4d)}. */
  public String text() {
    return message + " (request id " + requestId + ")";
  }
}
