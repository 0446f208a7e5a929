package dev.svc.model;

import java.util.List;
import java.util.Optional;

/**
 * {@code server.auth}: whole-endpoint authentication of {@code /mcp} and {@code /agent/*}, beside
 * (not instead of) each tool's own {@code auth}. Today one plugin, {@code oauth}: svc is an OAuth
 * 2.1 resource server that accepts JWT access tokens from one issuer.
 *
 * @param plugin {@link #OAUTH}
 * @param issuer the authorization server's issuer identifier ({@code iss}); its {@code
 *     /.well-known/openid-configuration} names the keys unless {@code jwksUri} is given
 * @param audience what the token's {@code aud} must contain (RFC 8707: this server)
 * @param scopes scopes every token must carry; also advertised in the protected-resource metadata
 * @param jwksUri where the issuer's signing keys are, when not discovered
 */
public record ServerAuth(
    String plugin,
    EnvString issuer,
    EnvString audience,
    List<String> scopes,
    Optional<EnvString> jwksUri) {
  public static final String OAUTH = "oauth";

  public ServerAuth {
    scopes = List.copyOf(scopes);
  }
}
