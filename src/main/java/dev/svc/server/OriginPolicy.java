package dev.svc.server;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * DNS-rebinding and cross-site protection, the same for every route (docs/decisions.md "MCP
 * transport", "Exposure and scale").
 *
 * <ul>
 *   <li>{@code Host}: when listening on a loopback address, only loopback values are accepted, plus
 *       the configured ones; when listening on other addresses, any value is accepted unless a list
 *       is configured.
 *   <li>{@code Origin} (sent by browsers only): loopback origins and the configured ones, wherever
 *       svc listens. A page from any other origin gets 403 and no CORS headers, so it can neither
 *       send a request with a JSON body nor read an answer. A page from svc itself (the dev
 *       console, {@code /ui}) is also accepted under a name listed in {@code allowed_hosts}: its
 *       origin names the same host and port as the {@code Host} it is sent to.
 * </ul>
 */
final class OriginPolicy {
  private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]", "::1");

  private final boolean loopbackOnly;
  private final List<String> allowedHosts;
  private final List<String> allowedOrigins;

  OriginPolicy(boolean loopbackOnly, List<String> allowedHosts, List<String> allowedOrigins) {
    this.loopbackOnly = loopbackOnly;
    this.allowedHosts = allowedHosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
    this.allowedOrigins =
        allowedOrigins.stream().map(o -> stripSlash(o.toLowerCase(Locale.ROOT))).toList();
  }

  boolean hostAllowed(Optional<String> hostHeader) {
    if (hostHeader.isEmpty()) {
      return !loopbackOnly;
    }
    String host = hostHeader.get().toLowerCase(Locale.ROOT);
    if (allowedHosts.contains(host) || allowedHosts.contains(withoutPort(host))) {
      return true;
    }
    if (LOOPBACK.contains(withoutPort(host))) {
      return true;
    }
    return !loopbackOnly && allowedHosts.isEmpty();
  }

  /**
   * Whether a request with this {@code Origin}, sent to this {@code Host}, may be served: loopback
   * and configured origins, and a same-origin request (svc's own page) to a host named in {@code
   * allowed_hosts}. Not any same-origin request: without a list, a server on a public address
   * accepts every {@code Host}, and a page of a rebound name would pass as its own.
   */
  boolean originAllowed(Optional<String> originHeader, Optional<String> hostHeader) {
    if (originHeader.isEmpty()) {
      return true; // not a browser
    }
    String origin = stripSlash(originHeader.get().toLowerCase(Locale.ROOT));
    if (allowedOrigins.contains(origin)) {
      return true;
    }
    try {
      URI uri = URI.create(origin);
      String host = uri.getHost();
      if (host != null && LOOPBACK.contains(host)) {
        return true;
      }
      if (host != null && hostHeader.isPresent() && uri.getRawAuthority() != null) {
        String sentTo = hostHeader.get().toLowerCase(Locale.ROOT);
        return sentTo.equals(uri.getRawAuthority())
            && (allowedHosts.contains(sentTo) || allowedHosts.contains(withoutPort(sentTo)));
      }
    } catch (IllegalArgumentException e) {
      return false;
    }
    return false;
  }

  static String withoutPort(String host) {
    if (host.startsWith("[")) {
      int close = host.indexOf(']');
      return close > 0 ? host.substring(0, close + 1) : host;
    }
    int colon = host.indexOf(':');
    return colon >= 0 && host.indexOf(':', colon + 1) < 0 ? host.substring(0, colon) : host;
  }

  private static String stripSlash(String text) {
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }
}
