package dev.svc.auth;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code server.auth.policy} with its env placeholders filled in: what an access token must be.
 *
 * @param issuer the token's {@code iss}, exactly as the authorization server writes it
 * @param audience a value the token's {@code aud} must contain
 * @param scopes scopes every token must carry
 * @param jwksUri the issuer's keys; empty to discover them from {@code
 *     {issuer}/.well-known/openid-configuration}
 * @param refreshInterval the least time between two fetches of the keys (or of the discovery
 *     document) that a token with an unknown {@code kid}, or a failed fetch, may cause
 */
public record OAuthPolicy(
    String issuer,
    String audience,
    List<String> scopes,
    Optional<URI> jwksUri,
    Duration refreshInterval) {
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(30);

  public OAuthPolicy {
    scopes = List.copyOf(scopes);
  }

  public OAuthPolicy(String issuer, String audience, List<String> scopes, Optional<URI> jwksUri) {
    this(issuer, audience, scopes, jwksUri, DEFAULT_REFRESH_INTERVAL);
  }

  /** OpenID Connect Discovery 1.0 §4: the issuer, without a trailing slash, plus the path. */
  public String discoveryUrl() {
    return (issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer)
        + "/.well-known/openid-configuration";
  }
}
