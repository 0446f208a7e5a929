package dev.svc.server;

import dev.svc.call.Headers;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Request;

/**
 * The base URL a client reached svc at ({@code scheme://host[:port]}), for the URLs svc writes into
 * what it answers (agent cards, the protected-resource metadata, the {@code 401} challenge). Behind
 * a proxy it is the proxy's: {@code X-Forwarded-Proto} and {@code X-Forwarded-Host} are honoured,
 * but only when they could be true: the scheme {@code http} or {@code https}, the host a plain name
 * or address (with a port) that passes the same {@code server.allowed_hosts} check as {@code Host}.
 * Anything else is ignored, so that a client cannot make svc name a host of its choosing in an
 * answer another client may be served from a cache.
 */
final class ForwardedBase {
  private static final Pattern HOST =
      Pattern.compile(
          "(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\\[[0-9A-Fa-f:.]{2,45}\\])(?::[0-9]{1,5})?");

  private ForwardedBase() {}

  static String of(Request request, Headers headers, OriginPolicy policy) {
    String scheme =
        headers
            .first("x-forwarded-proto")
            .map(s -> firstValue(s).toLowerCase(Locale.ROOT))
            .filter(s -> s.equals("http") || s.equals("https"))
            .orElse(request.isSecure() ? "https" : "http");
    String host =
        headers
            .first("x-forwarded-host")
            .map(ForwardedBase::firstValue)
            .filter(h -> HOST.matcher(h).matches() && policy.hostAllowed(Optional.of(h)))
            .or(() -> headers.first("host"))
            .orElse(Request.getServerName(request) + ":" + Request.getServerPort(request));
    return scheme + "://" + host;
  }

  private static String firstValue(String header) {
    int comma = header.indexOf(',');
    return (comma < 0 ? header : header.substring(0, comma)).strip();
  }
}
