package dev.svc.call;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;

/**
 * How a call asks its client something ({@link ClientRequest}): the one seam behind a tool's {@code
 * confirm} and a script's {@code mcp.elicit}, {@code mcp.sample} and {@code mcp.listRoots}. The
 * protocol edge supplies it: over a 2025-11-25 session, a request on the call's SSE stream whose
 * answer the client POSTs back; on 2026-07-28, an {@code input_required} result the client answers
 * by retrying the call. Callers with no client to ask (agents, internal calls) refuse.
 */
public interface ClientRequests {
  /** No client to ask: every request is refused, and no capability is declared. */
  ClientRequests NONE =
      refusing(
          "this call has no MCP client to ask (it did not come over an MCP session that can"
              + " answer server requests)");

  /** Whether the client declared {@code capability} ({@code elicitation}, {@code sampling}, …). */
  boolean declares(String capability);

  /** Sends {@code request}; never throws. */
  Answer ask(ClientRequest request);

  /**
   * Sends {@code request} under a name the caller chose: on 2026-07-28 the key of the request in
   * the call's {@code inputRequests} (and of its answer in {@code inputResponses}); ignored where
   * requests are not named (a 2025-11-25 session numbers them itself).
   */
  default Answer ask(ClientRequest request, Optional<String> key) {
    return ask(request);
  }

  /** What asking gave. */
  sealed interface Answer {
    /**
     * The client's result to come: completed with the JSON-RPC {@code result}, or exceptionally
     * with a {@link ClientRequestException} saying why there is none.
     */
    record Coming(CompletableFuture<JsonNode> result) implements Answer {}

    /**
     * The request goes out with the call's {@code input_required} result (2026-07-28): its answer
     * comes with the retried call, which runs again from the start. Nothing in this run settles it.
     */
    record NextRound() implements Answer {}
  }

  /** A seam that refuses every request with {@code why} and declares nothing. */
  static ClientRequests refusing(String why) {
    return new ClientRequests() {
      @Override
      public boolean declares(String capability) {
        return false;
      }

      @Override
      public Answer ask(ClientRequest request) {
        return new Answer.Coming(CompletableFuture.failedFuture(new ClientRequestException(why)));
      }
    };
  }
}
