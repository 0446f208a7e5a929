package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Optional;

/**
 * What the user wrote in the root configuration {@code .svc}.
 *
 * @param maxRows {@code tools.max_rows}
 * @param maxBytes {@code tools.max_bytes}
 * @param rateLimit {@code tools.rate_limit}
 * @param pushNotifications {@code agents.push_notifications}
 * @param scriptFetch {@code scripts.fetch}
 */
public record RootDefinition(
    Origin origin,
    Optional<Located<String>> name,
    Optional<Located<String>> version,
    Optional<Located<String>> root,
    Optional<Located<String>> toolsDirectory,
    Optional<CacheDefinition> cache,
    Optional<Located<Long>> searchLimit,
    Optional<Located<String>> adaptersDirectory,
    Optional<Located<String>> promptsDirectory,
    List<PromptDefinition> inlinePrompts,
    Optional<Located<String>> resourcesDirectory,
    List<ResourceDefinition> inlineResources,
    List<ResourceDefinition> inlineTemplates,
    Optional<Located<String>> agentsDirectory,
    Optional<ToolAccessDefinition> agentToolAccess,
    NetworksDefinition pushNotifications,
    ServerDefinition server,
    BuildDefinition build,
    Optional<Located<Long>> maxRows,
    Optional<Located<Long>> maxBytes,
    Optional<RateLimitDefinition> rateLimit,
    TasksDefinition tasks,
    NetworksDefinition scriptFetch) {

  public RootDefinition {
    inlinePrompts = List.copyOf(inlinePrompts);
    inlineResources = List.copyOf(inlineResources);
    inlineTemplates = List.copyOf(inlineTemplates);
  }

  /**
   * Which addresses beyond public ones an outbound request may reach: {@code
   * agents.push_notifications}, {@code scripts.fetch}.
   */
  public record NetworksDefinition(
      Optional<Located<Boolean>> allowPrivateNetworks, List<Located<String>> allowedNetworks) {
    public NetworksDefinition {
      allowedNetworks = List.copyOf(allowedNetworks);
    }
  }

  /** {@code agents.tasks}; each field absent when not written. */
  public record TasksDefinition(
      Optional<Located<String>> store,
      Optional<Located<Long>> leaseSeconds,
      Optional<Located<Long>> retentionHours,
      Optional<Located<Long>> maxRunning,
      Optional<Located<Long>> maxWaiting) {}

  /** The {@code server} section. */
  public record ServerDefinition(
      Optional<Located<String>> port,
      Optional<Located<Long>> logLevel,
      List<Located<String>> allowedHosts,
      List<Located<String>> allowedOrigins,
      Optional<Located<Boolean>> metricsEnabled,
      Optional<Located<Long>> metricsPort,
      Optional<Located<Boolean>> auditEnabled,
      Optional<Located<String>> auditPath,
      LimitsDefinition limits,
      Optional<ServerAuthDefinition> auth) {}

  /**
   * The {@code server.auth} section.
   *
   * @param origin where {@code auth:} was written
   * @param policyOrigin where {@code policy:} was written (the section's when absent)
   */
  public record ServerAuthDefinition(
      Origin origin,
      Optional<Located<String>> plugin,
      Origin policyOrigin,
      Optional<Located<String>> issuer,
      Optional<Located<String>> audience,
      List<Located<String>> scopes,
      Optional<Located<String>> jwksUri,
      Optional<IntrospectionDefinition> introspection) {
    public ServerAuthDefinition {
      scopes = List.copyOf(scopes);
    }
  }

  /**
   * {@code server.auth.policy.introspection}.
   *
   * @param origin where {@code introspection:} was written
   * @param tokens {@code opaque} or {@code all}
   * @param cacheSeconds how long an active answer is trusted
   */
  public record IntrospectionDefinition(
      Origin origin,
      Optional<Located<String>> clientId,
      Optional<Located<String>> clientSecret,
      Optional<Located<String>> endpoint,
      Optional<Located<String>> tokens,
      Optional<Located<Long>> cacheSeconds) {}

  /** The {@code server.limits} section; each field absent when not written. */
  public record LimitsDefinition(
      Optional<Located<Long>> maxBodyMb,
      Optional<Located<Long>> headerTimeout,
      Optional<Located<Long>> bodyTimeout,
      Optional<Located<Long>> connectionsPerClient,
      Optional<Located<Long>> drainTimeout,
      Optional<Located<Long>> drainDelay) {}

  /** The {@code build} section; {@code out} is {@code build.out} or {@code build.out_dir}. */
  public record BuildDefinition(
      Optional<Located<String>> out, Optional<Located<Boolean>> cleanDir) {}
}
