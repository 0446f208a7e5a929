package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.RootDefinition;
import dev.svc.definition.RootDefinition.IntrospectionDefinition;
import dev.svc.definition.RootDefinition.NetworksDefinition;
import dev.svc.definition.RootDefinition.ServerAuthDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Suggestions;
import dev.svc.model.Adapter;
import dev.svc.model.CachePolicy;
import dev.svc.model.ConnectorKind;
import dev.svc.model.EnvString;
import dev.svc.model.IpNetwork;
import dev.svc.model.OAuthUrls;
import dev.svc.model.ResultCaps;
import dev.svc.model.ServerAuth;
import dev.svc.model.Service;
import dev.svc.model.ToolAccess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Compiles the service-wide settings of the root configuration. */
final class ServiceCompiler {
  private final Diagnostics diagnostics;

  ServiceCompiler(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /**
   * @param adapters the project's adapters that compiled
   * @param brokenAdapters adapters whose own errors are reported (not named again here)
   */
  Optional<Service> compile(
      RootDefinition root,
      CachePolicy defaultCache,
      ToolAccess agentAccess,
      Map<String, Adapter> adapters,
      Set<String> brokenAdapters) {
    Optional<Integer> port = root.server().port().flatMap(this::port);
    if (root.name().isEmpty()) {
      return Optional.empty(); // reported by the shape check
    }
    return Optional.of(
        new Service(
            root.name().get().value(),
            root.version().map(Located::value),
            port,
            root.server().logLevel().map(l -> l.value().intValue()),
            root.server().allowedHosts().stream().map(Located::value).toList(),
            root.server().allowedOrigins().stream().map(Located::value).toList(),
            defaultCache,
            root.searchLimit().map(l -> l.value().intValue()).orElse(Service.DEFAULT_SEARCH_LIMIT),
            agentAccess,
            root.build().out().filter(this::isPath).map(Located::value),
            root.build().cleanDir().map(Located::value).orElse(false),
            new Service.Metrics(
                root.server().metricsEnabled().map(Located::value).orElse(true),
                root.server().metricsPort().map(p -> p.value().intValue())),
            new Service.Audit(
                root.server().auditEnabled().map(Located::value).orElse(false),
                root.server()
                    .auditPath()
                    .filter(this::isPath)
                    .map(Located::value)
                    .filter(p -> !p.isBlank())),
            limits(root.server().limits()),
            new Service.PushNotifications(
                allowPrivateNetworks(root.pushNotifications()),
                networks(root.pushNotifications(), "agents.push_notifications")),
            ToolCompiler.caps(ResultCaps.DEFAULTS, root.maxRows(), root.maxBytes()),
            root.server().auth().flatMap(this::auth),
            tasks(root.tasks(), adapters, brokenAdapters),
            rateLimitStore(root, adapters, brokenAdapters),
            cacheStore(root, adapters, brokenAdapters),
            new Service.ScriptFetch(
                allowPrivateNetworks(root.scriptFetch()),
                networks(root.scriptFetch(), "scripts.fetch"))));
  }

  /**
   * {@code tools.rate_limit.store}: must name a redis adapter. It applies to every tool's limit,
   * the tools' own blocks included, so it is checked even when the global limit is off.
   */
  private Optional<String> rateLimitStore(
      RootDefinition root, Map<String, Adapter> adapters, Set<String> brokenAdapters) {
    return redisStore(
        root.rateLimit().flatMap(r -> r.store()),
        "tools.rate_limit.store",
        "unsupported-rate-limit-store",
        "remove `store` to count in each instance's memory",
        adapters,
        brokenAdapters);
  }

  /**
   * {@code tools.cache.store}: must name a redis adapter. It holds every tool's cached results, the
   * tools that turn caching on in their own block included, so it is checked even when the global
   * cache is off.
   */
  private Optional<String> cacheStore(
      RootDefinition root, Map<String, Adapter> adapters, Set<String> brokenAdapters) {
    return redisStore(
        root.cache().flatMap(c -> c.store()),
        "tools.cache.store",
        "unsupported-cache-store",
        "remove `store` to cache in each instance's memory",
        adapters,
        brokenAdapters);
  }

  /** A store setting that must name a redis adapter: its name, or empty (reported) when not. */
  private Optional<String> redisStore(
      Optional<Located<String>> written,
      String field,
      String unsupportedCode,
      String inMemoryHint,
      Map<String, Adapter> adapters,
      Set<String> brokenAdapters) {
    if (written.isEmpty()) {
      return Optional.empty();
    }
    Located<String> name = written.get();
    Adapter adapter = adapters.get(name.value());
    if (adapter == null) {
      if (!brokenAdapters.contains(name.value())) {
        diagnostics.error(
            "unknown-adapter",
            name.origin(),
            "`" + field + "` names no adapter: `" + name.value() + "`",
            Suggestions.didYouMean(name.value(), adapters.keySet())
                .orElse(
                    adapters.isEmpty()
                        ? "define a redis adapter in app/adapters/" + name.value() + ".terse"
                        : "adapters: " + String.join(", ", new TreeSet<>(adapters.keySet()))));
      }
      return Optional.empty();
    }
    if (adapter.connector() != ConnectorKind.REDIS) {
      diagnostics.error(
          unsupportedCode,
          name.origin(),
          "adapter `"
              + name.value()
              + "` is a "
              + adapter.connector().wireName()
              + " adapter; `"
              + field
              + "` needs a redis one",
          "name a redis adapter, or " + inMemoryHint);
      return Optional.empty();
    }
    return Optional.of(adapter.name());
  }

  /**
   * {@code agents.tasks}: the store must name an adapter of a kind that can hold shared tasks
   * (postgres or redis); ranges were checked by the shape.
   */
  private Service.Tasks tasks(
      RootDefinition.TasksDefinition written,
      Map<String, Adapter> adapters,
      Set<String> brokenAdapters) {
    Optional<String> store = Optional.empty();
    if (written.store().isPresent()) {
      Located<String> name = written.store().get();
      Adapter adapter = adapters.get(name.value());
      if (adapter == null && !brokenAdapters.contains(name.value())) {
        diagnostics.error(
            "unknown-adapter",
            name.origin(),
            "`agents.tasks.store` names no adapter: `" + name.value() + "`",
            Suggestions.didYouMean(name.value(), adapters.keySet())
                .orElse(
                    adapters.isEmpty()
                        ? "define a postgres or redis adapter in app/adapters/"
                            + name.value()
                            + ".terse"
                        : "adapters: " + String.join(", ", new TreeSet<>(adapters.keySet()))));
      } else if (adapter != null
          && adapter.connector() != ConnectorKind.POSTGRES
          && adapter.connector() != ConnectorKind.REDIS) {
        diagnostics.error(
            "unsupported-task-store",
            name.origin(),
            "adapter `"
                + name.value()
                + "` is a "
                + adapter.connector().wireName()
                + " adapter; `agents.tasks.store` needs a postgres or redis one",
            "name a postgres or redis adapter, or remove `store` to keep tasks in memory");
      } else if (adapter != null) {
        store = Optional.of(adapter.name());
      }
    }
    return new Service.Tasks(
        store,
        written
            .leaseSeconds()
            .map(s -> Duration.ofSeconds(s.value()))
            .orElse(Service.Tasks.DEFAULT_LEASE),
        written
            .retentionHours()
            .map(h -> Duration.ofHours(h.value()))
            .orElse(Service.Tasks.DEFAULT_RETENTION),
        written
            .maxRunning()
            .map(n -> n.value().intValue())
            .orElse(Service.Tasks.DEFAULT_MAX_RUNNING),
        written
            .maxWaiting()
            .map(n -> n.value().intValue())
            .orElse(Service.Tasks.DEFAULT_MAX_WAITING));
  }

  /**
   * {@code server.auth}; a missing plugin, policy, issuer or audience and an unknown plugin were
   * reported by the shape check. URLs are checked here unless they hold env placeholders (then at
   * start, with their values).
   */
  private Optional<ServerAuth> auth(ServerAuthDefinition written) {
    if (written.plugin().isEmpty()
        || !written.plugin().get().value().equals(ServerAuth.OAUTH)
        || written.issuer().isEmpty()
        || written.audience().isEmpty()) {
      return Optional.empty();
    }
    EnvStrings env = new EnvStrings(diagnostics);
    Located<String> issuer = written.issuer().get();
    Located<String> audience = written.audience().get();
    authUrl(issuer, "issuer");
    written.jwksUri().ifPresent(uri -> authUrl(uri, "jwks_uri"));
    if (audience.value().isBlank()) {
      diagnostics.error(
          "invalid-auth-audience",
          audience.origin(),
          "`server.auth.policy.audience` is empty",
          "write this server's identifier as the authorization server puts it in `aud`, e.g."
              + " `https://svc.example.com/mcp`");
    }
    List<String> scopes = new ArrayList<>();
    for (Located<String> scope : written.scopes()) {
      if (!OAuthUrls.isScopeToken(scope.value())) {
        diagnostics.error(
            "invalid-auth-scope",
            scope.origin(),
            "`" + scope.value() + "` is not a scope",
            "a scope is one word of printable ASCII without spaces, quotes or backslashes, e.g."
                + " `mcp:tools`");
      } else if (scope.value().equals("offline_access")) {
        diagnostics.warning(
            "offline-access-scope",
            scope.origin(),
            "`offline_access` is not a resource's scope; tokens are not required to carry it",
            "remove it: MCP 2026-07-28 says servers should not ask for it");
      } else if (!scopes.contains(scope.value())) {
        scopes.add(scope.value());
      }
    }
    return Optional.of(
        new ServerAuth(
            ServerAuth.OAUTH,
            env.substituted(issuer),
            env.substituted(audience),
            scopes,
            written.jwksUri().map(env::substituted),
            written.introspection().flatMap(i -> introspection(i, env))));
  }

  /**
   * {@code server.auth.policy.introspection}; missing fields, an unknown {@code tokens} and a
   * {@code cache_seconds} out of range were reported by the shape check. The client secret must
   * come from the environment: a literal one would be in the project's files and in the artifact.
   */
  private Optional<ServerAuth.Introspection> introspection(
      IntrospectionDefinition written, EnvStrings env) {
    written.endpoint().ifPresent(uri -> authUrl(uri, "introspection.endpoint"));
    written
        .clientSecret()
        .filter(secret -> !EnvString.ATTEMPT.matcher(secret.value()).find())
        .ifPresent(secret ->
            diagnostics.error(
                "literal-client-secret",
                secret.origin(),
                "`server.auth.policy.introspection.client_secret` is written in the file; it must"
                    + " come from the environment",
                "write `client_secret: \"{{ env.INTROSPECTION_CLIENT_SECRET }}\"` and set the"
                    + " variable where svc runs (or in .env, kept out of version control)"));
    written
        .clientId()
        .filter(id -> id.value().isBlank())
        .ifPresent(id ->
            diagnostics.error(
                "missing-field",
                id.origin(),
                "`server.auth.policy.introspection.client_id` is empty",
                "write the client id svc has at the authorization server"));
    if (written.clientId().isEmpty() || written.clientSecret().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new ServerAuth.Introspection(
            env.substituted(written.clientId().get()),
            env.substituted(written.clientSecret().get()),
            written.endpoint().map(env::substituted),
            written.tokens().map(t -> t.value().equals("all")).orElse(false),
            written
                .cacheSeconds()
                .map(s -> Duration.ofSeconds(s.value()))
                .orElse(ServerAuth.Introspection.DEFAULT_CACHE_TIME)));
  }

  /**
   * An issuer or JWKS URL: absolute https (http only to this machine, with a warning elsewhere).
   */
  private void authUrl(Located<String> url, String field) {
    if (EnvString.ATTEMPT.matcher(url.value()).find()) {
      return; // checked at start, when its value is known
    }
    switch (OAuthUrls.check(url.value())) {
      case OAuthUrls.Check.Valid valid -> {}
      case OAuthUrls.Check.Insecure insecure ->
          diagnostics.warning(
              "insecure-auth-url",
              url.origin(),
              "`server.auth.policy."
                  + field
                  + "` uses plain http to another machine: "
                  + url.value(),
              "use https: tokens and keys must not travel in the clear");
      case OAuthUrls.Check.Invalid invalid ->
          diagnostics.error(
              "invalid-auth-url",
              url.origin(),
              "`server.auth.policy." + field + "` is not a usable URL: " + invalid.reason(),
              "write an absolute https URL, e.g. `https://auth.example.com/realms/shop`");
    }
  }

  /** {@code server.limits}; values out of range were reported by the shape check. */
  private static Service.Limits limits(RootDefinition.LimitsDefinition written) {
    Service.Limits defaults = Service.Limits.DEFAULTS;
    return new Service.Limits(
        written
            .maxBodyMb()
            .map(mb -> Math.clamp(mb.value(), 1, 1024) * 1024 * 1024)
            .orElse(defaults.maxBodyBytes()),
        seconds(written.headerTimeout(), 1, defaults.headerTimeout()),
        seconds(written.bodyTimeout(), 1, defaults.bodyTimeout()),
        written
            .connectionsPerClient()
            .map(n -> Math.clamp(n.value(), 0, 1_000_000))
            .orElse(defaults.connectionsPerClient()),
        seconds(written.drainTimeout(), 0, defaults.drainTimeout()),
        seconds(written.drainDelay(), 0, defaults.drainDelay()));
  }

  private static Duration seconds(
      Optional<Located<Long>> written, long minimum, Duration fallback) {
    return written
        .map(s -> Duration.ofSeconds(Math.clamp(s.value(), minimum, 3600)))
        .orElse(fallback);
  }

  private static boolean allowPrivateNetworks(NetworksDefinition written) {
    return written.allowPrivateNetworks().map(Located::value).orElse(false);
  }

  /**
   * The {@code allowed_networks} of {@code section} ({@code agents.push_notifications}, {@code
   * scripts.fetch}): each an address or a CIDR network, never a host name.
   */
  private List<IpNetwork> networks(NetworksDefinition written, String section) {
    List<IpNetwork> networks = new ArrayList<>();
    for (Located<String> network : written.allowedNetworks()) {
      IpNetwork.parse(network.value())
          .ifPresentOrElse(
              networks::add,
              () ->
                  diagnostics.error(
                      "invalid-network",
                      network.origin(),
                      "`"
                          + network.value()
                          + "` in `"
                          + section
                          + ".allowed_networks` is not an IP network",
                      "write an address or a network in CIDR notation, e.g. `10.20.0.0/16` or"
                          + " `fd00::/8` (host names are not accepted)"));
    }
    return networks;
  }

  private Optional<Integer> port(Located<String> written) {
    String text = written.value().strip();
    if (text.matches("[0-9]{1,5}") && Integer.parseInt(text) <= 65535) {
      return Optional.of(Integer.parseInt(text));
    }
    diagnostics.error(
        "invalid-port",
        written.origin(),
        "`server.port` is `" + written.value() + "`; it must be a number from 0 to 65535",
        "remove it to use --port, env PORT or 8080");
    return Optional.empty();
  }

  /** Whether {@code path} can name a file ({@code invalid-path} is reported when not). */
  private boolean isPath(Located<String> path) {
    return FilePaths.resolve(Path.of(""), path, diagnostics).isPresent();
  }
}
