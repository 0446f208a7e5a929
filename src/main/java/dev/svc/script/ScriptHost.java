package dev.svc.script;

import dev.svc.call.ClientRequest;
import dev.svc.call.ClientRequests;
import dev.svc.log.Level;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The host functions behind a call's {@code console}, {@code fetch} and {@code mcp.elicit}, {@code
 * mcp.sample}, {@code mcp.listRoots}.
 */
public interface ScriptHost {

  /** A line the script wrote with {@code console.*}. */
  void console(Level level, String message);

  /**
   * Starts an HTTP request. {@code request} is JSON {@code {url, method, headers: [[name, value]],
   * body}}; the future completes with JSON {@code {status, statusText, url, headers, body}} or
   * {@code {error}}, never exceptionally.
   */
  CompletableFuture<String> fetch(String request);

  /**
   * The script now waits for its fetches ({@code true}) or runs again ({@code false}): while it
   * waits it uses no CPU, which the pool takes into account when it sizes itself.
   */
  default void waiting(boolean waiting) {}

  /** Asks the call's client something (the script's {@code mcp.elicit}, …); never throws. */
  default ClientRequests.Answer ask(ClientRequest request, Optional<String> key) {
    return ClientRequests.NONE.ask(request);
  }
}
