package dev.svc.protocol.mcp;

import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cache hints ({@code ttlMs}, {@code cacheScope}) svc puts on the results MCP 2026-07-28 lets
 * clients cache (docs/serving.md "Cache hints"):
 *
 * <ul>
 *   <li>{@code server/discover}: an hour, {@code public} — what svc supports changes only with a
 *       new version of svc;
 *   <li>the four lists: five minutes, {@code public} — they change only when the project is rebuilt
 *       and the server restarted, and they are the same for every caller;
 *   <li>{@code resources/read}: {@code 0}, {@code private} — a resource may be read from a database
 *       or a file at every read, so it is never fresh;
 *   <li>under {@code --watch} every hint is {@code 0}: a save changes the lists at once, and {@code
 *       subscriptions/listen} says so.
 * </ul>
 */
record CacheHints(Map<String, Hint> byMethod) {
  static final long DISCOVER_TTL_MS = 3_600_000;
  static final long LIST_TTL_MS = 300_000;

  /** One result's hint. */
  record Hint(long ttlMs, String cacheScope) {
    void writeTo(ObjectNode result) {
      result.put("ttlMs", ttlMs);
      result.put("cacheScope", cacheScope);
    }
  }

  /**
   * @param watching whether the server reloads the project when its files change
   */
  static CacheHints of(boolean watching) {
    long discover = watching ? 0 : DISCOVER_TTL_MS;
    long lists = watching ? 0 : LIST_TTL_MS;
    return new CacheHints(
        Map.of(
            "server/discover", new Hint(discover, "public"),
            "tools/list", new Hint(lists, "public"),
            "prompts/list", new Hint(lists, "public"),
            "resources/list", new Hint(lists, "public"),
            "resources/templates/list", new Hint(lists, "public"),
            "resources/read", new Hint(0, "private")));
  }

  Optional<Hint> of(String method) {
    return Optional.ofNullable(byMethod.get(method));
  }
}
