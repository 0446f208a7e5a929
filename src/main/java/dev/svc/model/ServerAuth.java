package dev.svc.model;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code server.auth}: whole-endpoint authentication of {@code /mcp} and {@code /agent/*}, beside
 * (not instead of) each tool's own {@code auth}. Today one plugin, {@code oauth}: svc is an OAuth
 * 2.1 resource server that accepts access tokens from one issuer: JWTs it verifies itself, and,
 * with {@code introspection}, tokens it asks the issuer about (RFC 7662).
 *
 * @param plugin {@link #OAUTH}
 * @param issuer the authorization server's issuer identifier ({@code iss}); its {@code
 *     /.well-known/openid-configuration} names the keys unless {@code jwksUri} is given
 * @param audience what the token's {@code aud} must contain (RFC 8707: this server)
 * @param scopes scopes every token must carry; also advertised in the protected-resource metadata
 * @param jwksUri where the issuer's signing keys are, when not discovered
 * @param introspection how to ask the issuer about tokens, when it may be asked
 */
public record ServerAuth(
    String plugin,
    EnvString issuer,
    EnvString audience,
    List<String> scopes,
    Optional<EnvString> jwksUri,
    Optional<Introspection> introspection) {
  public static final String OAUTH = "oauth";

  public ServerAuth {
    scopes = List.copyOf(scopes);
  }

  /** Without introspection (format 10 and 11 artifacts, and most tests). */
  public ServerAuth(
      String plugin,
      EnvString issuer,
      EnvString audience,
      List<String> scopes,
      Optional<EnvString> jwksUri) {
    this(plugin, issuer, audience, scopes, jwksUri, Optional.empty());
  }

  /**
   * {@code server.auth.policy.introspection}: OAuth 2.0 Token Introspection (RFC 7662).
   *
   * @param clientId svc's client at the authorization server
   * @param clientSecret its secret: always an env placeholder (the compiler refuses a literal one,
   *     so the artifact never holds it)
   * @param endpoint the introspection endpoint, when not discovered from the issuer's metadata
   * @param everyToken introspect JWTs too ({@code tokens: all}), not only tokens that are not JWTs
   * @param cacheTime how long an active answer is trusted (never past the token's {@code exp});
   *     zero to ask on every request
   */
  public record Introspection(
      EnvString clientId,
      EnvString clientSecret,
      Optional<EnvString> endpoint,
      boolean everyToken,
      Duration cacheTime) {
    public static final Duration DEFAULT_CACHE_TIME = Duration.ofSeconds(60);
    public static final Duration MAX_CACHE_TIME = Duration.ofHours(1);
  }
}
