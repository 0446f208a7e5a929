package dev.svc.script;

import dev.svc.call.ClientRequest;
import dev.svc.call.ClientRequests;
import dev.svc.log.Level;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The host functions behind a call's {@code console}, {@code fetch} and {@code mcp.elicit}, {@code
 * mcp.sample}, {@code mcp.listRoots}, {@code mcp.canAsk}.
 */
public interface ScriptHost {

  /** A line the script wrote with {@code console.*}. */
  void console(Level level, String message);

  /**
   * Starts an HTTP request. {@code request} is JSON {@code {url, method, headers: [[name, value]],
   * body}}; the future completes with the {@link FetchAnswer}, JSON {@code {status, statusText,
   * url, headers, body}} or {@code {error}}, never exceptionally. Cancelling it ends the request.
   */
  CompletableFuture<FetchAnswer> fetch(String request);

  /**
   * The script now waits for its fetches ({@code true}) or runs again ({@code false}): while it
   * waits it uses no CPU, which the pool takes into account when it sizes itself.
   */
  default void waiting(boolean waiting) {}

  /**
   * Whether the call's client declared {@code capability} ({@code elicitation}, {@code sampling},
   * {@code roots}): the script's {@code mcp.canAsk}.
   */
  default boolean declares(String capability) {
    return false;
  }

  /** Asks the call's client something (the script's {@code mcp.elicit}, …); never throws. */
  default ClientRequests.Answer ask(ClientRequest request, Optional<String> key) {
    return ClientRequests.NONE.ask(request);
  }
}
