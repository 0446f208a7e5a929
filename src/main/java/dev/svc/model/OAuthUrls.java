package dev.svc.model;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Checks of the URLs and scopes of {@code server.auth}: the same rules when compiling (values
 * without env placeholders) and at start (values with them).
 */
public final class OAuthUrls {
  private OAuthUrls() {}

  /** What a URL is worth as an issuer or JWKS location. */
  public sealed interface Check {
    record Valid(URI uri) implements Check {}

    /** Plain http to another machine: usable, but tokens and keys travel in the clear. */
    record Insecure(URI uri) implements Check {}

    record Invalid(String reason) implements Check {}
  }

  public static Check check(String text) {
    URI uri;
    try {
      uri = new URI(text.strip());
    } catch (URISyntaxException e) {
      return new Check.Invalid(e.getReason());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https") && !scheme.equals("http")) {
      return new Check.Invalid("it must start with https://");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      return new Check.Invalid("it has no host");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      return new Check.Invalid("it must not have a query or a fragment");
    }
    if (uri.getUserInfo() != null) {
      return new Check.Invalid("it must not hold a user name or password");
    }
    if (scheme.equals("http") && !isLocal(uri.getHost())) {
      return new Check.Insecure(uri);
    }
    return new Check.Valid(uri);
  }

  private static boolean isLocal(String host) {
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    // only literal addresses: no name lookup while compiling
    if (!host.matches("[0-9.]+|\\[[0-9a-fA-F:.]+\\]")) {
      return false;
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** RFC 6749 §3.3 {@code scope-token}: {@code %x21 / %x23-5B / %x5D-7E}, at least one. */
  public static boolean isScopeToken(String scope) {
    return !scope.isEmpty()
        && scope
            .chars()
            .allMatch(c -> c == 0x21 || (c >= 0x23 && c <= 0x5B) || (c >= 0x5D && c <= 0x7E));
  }
}
