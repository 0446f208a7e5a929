package dev.svc.protocol;

import dev.svc.call.Headers;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * An HTTP request as the protocols see it, independent of the HTTP library.
 *
 * @param method {@code GET}, {@code POST}, {@code DELETE}, …
 * @param path the request path, e.g. {@code /mcp} or {@code /agent/helper}
 * @param baseUrlOf works out the scheme, host and port the client used (honouring {@code
 *     X-Forwarded-*}) when asked: most requests never need them
 * @param requestId the id svc gave this request (in logs and server-fault errors)
 * @param query the raw query string without {@code ?}; empty when the URL has none
 */
public record HttpCall(
    String method,
    String path,
    Headers headers,
    byte[] body,
    Supplier<String> baseUrlOf,
    String requestId,
    String query) {

  /** Scheme, host and port the client used, e.g. {@code https://svc.example.com}. */
  public String baseUrl() {
    return baseUrlOf.get();
  }

  /** The first value of a query parameter, URL-decoded. */
  public Optional<String> queryParameter(String name) {
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      if (decode(key).equals(name)) {
        return Optional.of(eq < 0 ? "" : decode(pair.substring(eq + 1)));
      }
    }
    return Optional.empty();
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }
}
