package dev.svc.protocol;

import dev.svc.auth.ApiKeyPlugin;
import dev.svc.auth.Principal;
import dev.svc.call.Headers;
import dev.svc.call.VerifiedToken;
import dev.svc.model.AuthPolicy;
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
 * @param verified the access token {@code server.auth} verified (its subject, scopes and claims,
 *     never the token); empty without {@code server.auth} (then the request's {@code Authorization}
 *     header is passed on as sent)
 * @param clientAddress the client the connection's peer is (not {@code X-Forwarded-For}, which svc
 *     does not trust): its IPv4 address, or its IPv6 address's {@code /64} network ({@link
 *     dev.svc.net.ClientAddress}); empty when unknown
 */
public record HttpCall(
    String method,
    String path,
    Headers headers,
    byte[] body,
    Supplier<String> baseUrlOf,
    String requestId,
    String query,
    Optional<VerifiedToken> verified,
    String clientAddress) {

  public HttpCall(
      String method,
      String path,
      Headers headers,
      byte[] body,
      Supplier<String> baseUrlOf,
      String requestId,
      String query,
      Optional<VerifiedToken> verified) {
    this(method, path, headers, body, baseUrlOf, requestId, query, verified, "");
  }

  public HttpCall(
      String method,
      String path,
      Headers headers,
      byte[] body,
      Supplier<String> baseUrlOf,
      String requestId,
      String query) {
    this(method, path, headers, body, baseUrlOf, requestId, query, Optional.empty());
  }

  /**
   * This call, made by the subject of {@code token} after the token was verified: the token leaves
   * the headers here, so nothing downstream (tools, scripts, auth plugins, logs) ever sees it.
   */
  public HttpCall authenticated(VerifiedToken token) {
    return new HttpCall(
        method,
        path,
        headers.without("authorization"),
        body,
        baseUrlOf,
        requestId,
        query,
        Optional.of(token),
        clientAddress);
  }

  /**
   * Whose calls a rate limit counts together: the principal of the access token {@code server.auth}
   * verified; for a tool whose own {@code auth} block checks credentials before it runs, the {@link
   * Principal} the credentials it checks make (a made-up key is refused there, so it buys no call);
   * else the connection's client ({@code ip:10.0.0.7}, {@code ip:2001:db8:1:2::/64}). Not unchecked
   * credentials: a client that sent a new {@code X-API-Key} or {@code Authorization} value with
   * each call would be a new caller each time, never limited; that holds for a header the tool's
   * plugin does not look at too ({@code Authorization} beside the key {@code api_key} checks).
   *
   * @param checked the credentials the tool checks itself ({@code NONE} without an auth block)
   */
  public String rateLimitKey(AuthPolicy.CheckedCredentials checked) {
    if (verified.isPresent()) {
      return verified.get().principalId();
    }
    Headers credentials =
        switch (checked) {
          case NONE -> Headers.NONE;
          case API_KEY -> headers.without("authorization");
          case AUTHORIZATION -> headers.without(ApiKeyPlugin.HEADER);
          case BOTH -> headers;
        };
    Principal principal = Principal.fromCredentials(credentials);
    if (!principal.isAnonymous()) {
      return principal.id();
    }
    return clientAddress.isEmpty() ? Principal.ANONYMOUS.id() : "ip:" + clientAddress;
  }

  /**
   * Who the request acts for: the verified principal, or else the one its credentials make ({@link
   * Principal#fromCredentials}).
   */
  public Principal principal() {
    return verified
        .map(token -> Principal.ofSubject(token.subject()))
        .orElseGet(() -> Principal.fromCredentials(headers));
  }

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
