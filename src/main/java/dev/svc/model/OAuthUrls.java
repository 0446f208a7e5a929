package dev.svc.model;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import dev.svc.log.Log;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Checks of the URLs and scopes of {@code server.auth}: the same rules when compiling (values
 * without env placeholders) and at start (values with them).
 */
public final class OAuthUrls {
  private static final Log LOG = Log.tagged("auth");

  private OAuthUrls() {}

  /**
   * A URL whose env placeholders were filled in at start: usable (plain http to another machine is
   * logged as a warning), or an {@code invalid-auth-url} error at the value's position.
   *
   * @param place where it was written, as the messages name it (e.g. {@code server.auth})
   * @param travels what would travel in the clear over plain http (e.g. {@code tokens and keys})
   */
  public static Optional<URI> usable(
      String text, Origin origin, String place, String travels, List<Diagnostic> problems) {
    return switch (check(text)) {
      case Check.Valid valid -> Optional.of(valid.uri());
      case Check.Insecure insecure -> {
        LOG.warn(
            place + " uses plain http to another machine: " + travels + " travel in the clear",
            "url",
            text);
        yield Optional.of(insecure.uri());
      }
      case Check.Invalid invalid -> {
        problems.add(
            Diagnostic.error(
                    "invalid-auth-url",
                    origin,
                    "`" + text + "` in " + place + " is not a usable URL: " + invalid.reason())
                .withHint("write an absolute https URL"));
        yield Optional.empty();
      }
    };
  }

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
