package dev.svc.protocol.mcp;

import dev.svc.json.Json;
import dev.svc.model.AuthPolicy;
import dev.svc.model.Tool;
import dev.svc.protocol.HttpCall;
import dev.svc.protocol.HttpReply;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcCodec;
import dev.svc.protocol.jsonrpc.JsonRpcError;
import dev.svc.ratelimit.RateLimitDecision;
import dev.svc.ratelimit.RateLimiter;
import dev.svc.runtime.ToolInvoker;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The rate limits of {@code tools/call}, taken before the reply starts (so that a refused call is
 * an HTTP 429 even when the client accepts a stream) and before the tool runs (so that it does
 * not).
 */
final class ToolRateLimits {
  private final RateLimiter limiter;

  ToolRateLimits(RateLimiter limiter) {
    this.limiter = limiter;
  }

  /**
   * The decision about one call of {@code tool} by the caller of {@code http}; empty: no limit. A
   * call whose credentials make no caller to the tool's plugin (a made-up key; for a custom plugin,
   * one it has not admitted lately) counts for its address: guesses are limited, and each opens no
   * window of its own.
   */
  Optional<RateLimitDecision> take(HttpCall http, ToolInvoker tools, Optional<Tool> tool) {
    if (tool.isEmpty() || tool.get().rateLimit().isEmpty()) {
      return Optional.empty();
    }
    Tool t = tool.get();
    AuthPolicy.CheckedCredentials checked =
        t.auth().map(AuthPolicy::checkedCredentials).orElse(AuthPolicy.CheckedCredentials.NONE);
    if (checked != AuthPolicy.CheckedCredentials.NONE && tools.takesForAGuess(t, http.headers())) {
      checked = AuthPolicy.CheckedCredentials.NONE;
    }
    String caller = http.rateLimitKey(checked);
    return Optional.of(limiter.acquire(t.name() + "\n" + caller, t.rateLimit().get()));
  }

  /** The headers a reply carries: none without a limit. */
  static Map<String, String> headers(Optional<RateLimitDecision> decision, String tool) {
    return decision.map(d -> d.headers(tool)).orElse(Map.of());
  }

  /**
   * The answer to a refused call: HTTP 429 with {@code Retry-After} and the {@code RateLimit}
   * headers, and a JSON-RPC error {@code 429} whose {@code data} holds {@code retryAfterSeconds}.
   */
  static HttpReply refused(JsonNode id, String tool, RateLimitDecision decision) {
    return McpServer.json(
        429, decision.headers(tool), JsonRpcCodec.error(Optional.of(id), error(tool, decision)));
  }

  /** The JSON-RPC error of a refused call (also sent alone where no status can be set). */
  static JsonRpcError error(String tool, RateLimitDecision decision) {
    long retry = decision.retryAfterSeconds();
    return new JsonRpcError(
        ErrorCodes.RATE_LIMITED,
        "Rate limit exceeded: tool `"
            + tool
            + "` allows "
            + decision.limit().requests()
            + " calls per "
            + decision.limit().per().toSeconds()
            + " s per caller; retry after "
            + retry
            + " s",
        Optional.of(
            Json.NODES
                .objectNode()
                .put("retryAfterSeconds", retry)
                .put("limit", decision.limit().requests())
                .put("windowSeconds", Math.max(1, decision.limit().per().toSeconds()))));
  }
}
