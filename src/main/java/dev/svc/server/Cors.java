package dev.svc.server;

import java.util.Optional;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Cross-origin answers: the headers of an allowed {@code Origin}'s requests and the preflights of
 * {@code /mcp}, the agents' routes and the OAuth metadata. Which origins are allowed at all is the
 * {@link OriginPolicy}'s to say, before any of this.
 */
final class Cors {
  private static final String MCP_ALLOWED_HEADERS =
      "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method,"
          + " Mcp-Name, Last-Event-ID, X-API-Key";
  private static final String AGENT_ALLOWED_HEADERS =
      "Content-Type, Accept, Authorization, A2A-Version, A2A-Extensions, X-API-Key";

  private Cors() {}

  /** The OAuth metadata documents are public: any origin may read them. */
  static void metadataPreflight(Response response, Callback callback) {
    response.getHeaders().put("Access-Control-Allow-Origin", "*");
    response.getHeaders().put("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
    response.setStatus(204);
    response.write(true, null, callback);
  }

  /**
   * The headers of a cross-origin answer on {@code /mcp} or an agent's route, for an {@code Origin}
   * the policy allowed (none without one).
   */
  static void allowOrigin(Response response, Optional<String> origin, boolean isMcp) {
    if (origin.isEmpty()) {
      return;
    }
    response.getHeaders().put("Access-Control-Allow-Origin", origin.get());
    response.getHeaders().put("Vary", "Origin");
    response
        .getHeaders()
        .put(
            "Access-Control-Expose-Headers",
            isMcp
                ? "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate"
                : "A2A-Version, WWW-Authenticate");
  }

  /** The answer to an {@code OPTIONS} preflight of {@code /mcp} or an agent's route. */
  static void preflight(Request request, Response response, Callback callback, boolean isMcp) {
    response
        .getHeaders()
        .put(
            "Access-Control-Allow-Methods",
            isMcp ? "GET, POST, DELETE, OPTIONS" : "GET, POST, OPTIONS");
    response
        .getHeaders()
        .put(
            "Access-Control-Allow-Headers",
            isMcp
                ? MCP_ALLOWED_HEADERS
                    + paramHeaders(request.getHeaders().get("Access-Control-Request-Headers"))
                : AGENT_ALLOWED_HEADERS);
    response.getHeaders().put("Access-Control-Max-Age", "600");
    response.setStatus(204);
    response.write(true, null, callback);
  }

  /**
   * The {@code Mcp-Param-*} headers a preflight asks for (MCP 2026-07-28 mirrors tool arguments
   * marked {@code x-mcp-header} into them), to allow beside the fixed ones; their names vary by
   * tool.
   */
  private static String paramHeaders(String requested) {
    if (requested == null) {
      return "";
    }
    StringBuilder allowed = new StringBuilder();
    for (String name : requested.split(",")) {
      String header = name.strip();
      if (header.regionMatches(true, 0, "mcp-param-", 0, 10)
          && header.length() <= 128
          && header.chars().allMatch(Cors::isTokenCharacter)) {
        allowed.append(", ").append(header);
      }
    }
    return allowed.toString();
  }

  private static boolean isTokenCharacter(int c) {
    return c == '-'
        || c == '_'
        || (c >= '0' && c <= '9')
        || (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z');
  }
}
