package dev.svc.model;

import java.util.List;
import java.util.Optional;

/**
 * Service-wide settings from the root configuration.
 *
 * @param port {@code server.port}, when set
 * @param logLevel {@code server.log_level}, when set
 * @param defaultCache {@code tools.cache}: what tools without their own settings use
 * @param searchLimit {@code tools.search.limit}
 * @param agentToolAccess {@code agents.tool_access}: what agents with mode {@code inherit} get
 * @param buildOut {@code build.out} / {@code build.out_dir}, relative to the project
 */
public record Service(
    String name,
    Optional<String> version,
    Optional<Integer> port,
    Optional<Integer> logLevel,
    List<String> allowedHosts,
    List<String> allowedOrigins,
    CachePolicy defaultCache,
    int searchLimit,
    ToolAccess agentToolAccess,
    Optional<String> buildOut,
    boolean buildCleanDir) {
  public static final int DEFAULT_SEARCH_LIMIT = 10;

  public Service {
    allowedHosts = List.copyOf(allowedHosts);
    allowedOrigins = List.copyOf(allowedOrigins);
  }
}
