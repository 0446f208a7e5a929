package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.RootDefinition;
import dev.svc.definition.RootDefinition.PushNotificationsDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.CachePolicy;
import dev.svc.model.IpNetwork;
import dev.svc.model.ResultCaps;
import dev.svc.model.Service;
import dev.svc.model.ToolAccess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Compiles the service-wide settings of the root configuration. */
final class ServiceCompiler {
  private final Diagnostics diagnostics;

  ServiceCompiler(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  Optional<Service> compile(RootDefinition root, CachePolicy defaultCache, ToolAccess agentAccess) {
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
            root.build().out().map(Located::value),
            root.build().cleanDir().map(Located::value).orElse(false),
            new Service.Metrics(
                root.server().metricsEnabled().map(Located::value).orElse(true),
                root.server().metricsPort().map(p -> p.value().intValue())),
            new Service.Audit(
                root.server().auditEnabled().map(Located::value).orElse(false),
                root.server().auditPath().map(Located::value).filter(p -> !p.isBlank())),
            limits(root.server().limits()),
            pushNotifications(root.pushNotifications()),
            ToolCompiler.caps(ResultCaps.DEFAULTS, root.maxRows(), root.maxBytes())));
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
        seconds(written.drainTimeout(), 0, defaults.drainTimeout()));
  }

  private static Duration seconds(
      Optional<Located<Long>> written, long minimum, Duration fallback) {
    return written
        .map(s -> Duration.ofSeconds(Math.clamp(s.value(), minimum, 3600)))
        .orElse(fallback);
  }

  private Service.PushNotifications pushNotifications(PushNotificationsDefinition written) {
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
                          + "` in `agents.push_notifications.allowed_networks` is not an IP"
                          + " network",
                      "write an address or a network in CIDR notation, e.g. `10.20.0.0/16` or"
                          + " `fd00::/8` (host names are not accepted)"));
    }
    return new Service.PushNotifications(
        written.allowPrivateNetworks().map(Located::value).orElse(false), networks);
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
}
