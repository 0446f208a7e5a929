package dev.svc.protocol.mcp;

import java.util.List;

/** The MCP revisions svc speaks (docs/decisions.md "MCP transport"). */
public final class ProtocolVersions {
  private ProtocolVersions() {}

  public static final String PREFERRED = "2025-11-25";

  /** The revisions served with sessions, after an {@code initialize} handshake. */
  public static final List<String> SUPPORTED =
      List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

  /**
   * The revisions served statelessly: each request names its revision in {@code
   * params._meta["io.modelcontextprotocol/protocolVersion"]} and nothing lives between requests.
   */
  public static final List<String> STATELESS = List.of("2026-07-28");

  /** Every revision svc speaks, newest first: what {@code server/discover} lists. */
  public static final List<String> ALL =
      List.of("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

  /** Whether {@code version} is a stateless revision (2026-07-28 and later). */
  public static boolean isStateless(String version) {
    return STATELESS.contains(version);
  }

  /** The revision that brought completions ({@code completion/complete}). */
  static final String COMPLETIONS_SINCE = "2025-03-26";

  /** Whether {@code version} has completions; revisions are dates, so they compare as text. */
  static boolean hasCompletions(String version) {
    return version.compareTo(COMPLETIONS_SINCE) >= 0;
  }

  /** The client's version when supported, else the preferred one. */
  public static String negotiate(String requested) {
    return SUPPORTED.contains(requested) ? requested : PREFERRED;
  }
}
