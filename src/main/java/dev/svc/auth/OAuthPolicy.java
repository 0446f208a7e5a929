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
 * @param introspection how to ask the issuer about tokens (RFC 7662), when it may be asked
 */
public record OAuthPolicy(
    String issuer,
    String audience,
    List<String> scopes,
    Optional<URI> jwksUri,
    Duration refreshInterval,
    Optional<Introspection> introspection) {
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(30);

  public OAuthPolicy {
    scopes = List.copyOf(scopes);
  }

  public OAuthPolicy(
      String issuer,
      String audience,
      List<String> scopes,
      Optional<URI> jwksUri,
      Duration refreshInterval) {
    this(issuer, audience, scopes, jwksUri, refreshInterval, Optional.empty());
  }

  public OAuthPolicy(String issuer, String audience, List<String> scopes, Optional<URI> jwksUri) {
    this(issuer, audience, scopes, jwksUri, DEFAULT_REFRESH_INTERVAL);
  }

  /** This policy, asking the issuer about tokens with {@code introspection}. */
  public OAuthPolicy introspecting(Introspection introspection) {
    return new OAuthPolicy(
        issuer, audience, scopes, jwksUri, refreshInterval, Optional.of(introspection));
  }

  /**
   * {@code server.auth.policy.introspection} with its env placeholders filled in.
   *
   * @param clientId svc's client at the authorization server
   * @param clientSecret its secret (HTTP Basic, RFC 6749 §2.3.1); never in {@link #toString()}
   * @param endpoint the introspection endpoint; empty to discover it as {@code
   *     introspection_endpoint} of {@code {issuer}/.well-known/openid-configuration}
   * @param everyToken introspect JWTs too, instead of verifying them here
   * @param cacheTime how long an active answer is trusted (never past the token's {@code exp});
   *     zero to ask on every request
   */
  public record Introspection(
      String clientId,
      String clientSecret,
      Optional<URI> endpoint,
      boolean everyToken,
      Duration cacheTime) {
    @Override
    public String toString() {
      return "Introspection[clientId="
          + clientId
          + ", clientSecret=(hidden), endpoint="
          + endpoint
          + ", everyToken="
          + everyToken
          + ", cacheTime="
          + cacheTime
          + "]";
    }
  }

  /** OpenID Connect Discovery 1.0 §4: the issuer, without a trailing slash, plus the path. */
  public String discoveryUrl() {
    return (issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer)
        + "/.well-known/openid-configuration";
  }
}
