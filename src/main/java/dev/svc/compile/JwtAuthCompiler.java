package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.NamedValue;
import dev.svc.definition.RootDefinition.ServerAuthDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.diagnostic.Suggestions;
import dev.svc.model.AuthPolicy;
import dev.svc.model.EnvString;
import dev.svc.model.OAuthUrls;
import dev.svc.model.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the compiler checks of access tokens in tools: the policy of the built-in {@code jwt} auth
 * plugin, and that a statement binding {@code {{ auth.claims.<name> }}} has a token to take them
 * from (its own {@code jwt} plugin, or {@code server.auth}).
 */
final class JwtAuthCompiler {
  static final String CLAIMS = StatementText.CLAIMS;
  private static final List<String> KEYS =
      List.of(
          AuthPolicy.JWT_ISSUER,
          AuthPolicy.JWT_AUDIENCE,
          AuthPolicy.JWT_SCOPES,
          AuthPolicy.JWT_JWKS_URI);

  private final Diagnostics diagnostics;
  private final Optional<ServerAuthDefinition> serverAuth;

  /**
   * @param serverAuth the project's {@code server.auth}, if it has one
   */
  JwtAuthCompiler(Diagnostics diagnostics, Optional<ServerAuthDefinition> serverAuth) {
    this.diagnostics = diagnostics;
    this.serverAuth = serverAuth;
  }

  /**
   * Checks a {@code jwt} policy. Without {@code server.auth}, {@code issuer} and {@code audience}
   * are required. With it, the endpoint verifies every token against its own policy: the tool's
   * {@code issuer}, {@code audience} and {@code jwks_uri} would never be applied, so they are
   * flagged: a warning when they repeat {@code server.auth}'s, an error when they differ (the tool
   * would look narrower than what is enforced).
   */
  void checkPolicy(Located<String> plugin, List<NamedValue> policy) {
    Map<String, Located<String>> written = new LinkedHashMap<>();
    for (NamedValue entry : policy) {
      String key = entry.key().value();
      if (!KEYS.contains(key)) {
        diagnostics.error(
            "unknown-auth-policy-key",
            entry.key().origin(),
            "the `jwt` plugin has no policy key `" + key + "`",
            Suggestions.didYouMean(key, KEYS).orElse("its keys: " + String.join(", ", KEYS)));
      } else {
        written.put(key, entry.value());
      }
    }
    Optional.ofNullable(written.get(AuthPolicy.JWT_SCOPES)).ifPresent(this::checkScopes);
    if (serverAuth.isPresent()) {
      ServerAuthDefinition server = serverAuth.get();
      compareWithServer(written.get(AuthPolicy.JWT_ISSUER), server.issuer(), "issuer");
      compareWithServer(written.get(AuthPolicy.JWT_AUDIENCE), server.audience(), "audience");
      compareWithServer(written.get(AuthPolicy.JWT_JWKS_URI), server.jwksUri(), "jwks_uri");
      return;
    }
    for (String key : List.of(AuthPolicy.JWT_ISSUER, AuthPolicy.JWT_AUDIENCE)) {
      Located<String> value = written.get(key);
      if (value == null) {
        diagnostics.error(
            "missing-auth-policy",
            plugin.origin(),
            "the `jwt` plugin needs `policy." + key + "`",
            "write `policy: {issuer: https://auth.example.com/realms/shop, audience:"
                + " https://svc.example.com/mcp}` (the tokens' `iss` and a value of their `aud`),"
                + " or turn on `server.auth` in .svc");
      } else if (value.value().isBlank()) {
        diagnostics.error("invalid-auth-policy", value.origin(), "`policy." + key + "` is empty");
      }
    }
    Optional.ofNullable(written.get(AuthPolicy.JWT_ISSUER)).ifPresent(v -> url(v, "issuer"));
    Optional.ofNullable(written.get(AuthPolicy.JWT_JWKS_URI)).ifPresent(v -> url(v, "jwks_uri"));
  }

  private void checkScopes(Located<String> scopes) {
    for (String scope : scopes.value().strip().split("\\s+")) {
      if (!scope.isEmpty() && !EnvString.ATTEMPT.matcher(scope).find()) {
        if (!OAuthUrls.isScopeToken(scope)) {
          diagnostics.error(
              "invalid-auth-scope",
              scopes.origin(),
              "`" + scope + "` is not a scope",
              "write scopes separated by spaces, e.g. `scopes: \"orders:read profile\"`");
        }
      }
    }
  }

  private void compareWithServer(
      Located<String> tool, Optional<Located<String>> server, String key) {
    if (tool == null) {
      return;
    }
    if (server.isPresent() && server.get().value().strip().equals(tool.value().strip())) {
      diagnostics.warning(
          "ignored-auth-policy",
          tool.origin(),
          "`policy." + key + "` is ignored: server.auth verified the token",
          "remove it; behind server.auth the `jwt` plugin checks only `scopes`");
    } else {
      diagnostics.error(
          "conflicting-auth-policy",
          tool.origin(),
          "`policy."
              + key
              + "` differs from server.auth's, which verifies every token: the tool would never"
              + " see a token this policy asks for",
          "remove it (behind server.auth the `jwt` plugin checks only `scopes`), or serve this"
              + " tool from a project without server.auth");
    }
  }

  private void url(Located<String> value, String key) {
    if (EnvString.ATTEMPT.matcher(value.value()).find() || value.value().isBlank()) {
      return; // checked at start, with the variables' values
    }
    switch (OAuthUrls.check(value.value())) {
      case OAuthUrls.Check.Valid valid -> {}
      case OAuthUrls.Check.Insecure insecure ->
          diagnostics.warning(
              "insecure-auth-url",
              value.origin(),
              "`policy." + key + "` uses plain http to another machine: keys travel in the clear",
              "use https");
      case OAuthUrls.Check.Invalid invalid ->
          diagnostics.error(
              "invalid-auth-url",
              value.origin(),
              "`policy." + key + "` is not a usable URL: " + invalid.reason(),
              "write an absolute https URL, e.g. `https://auth.example.com/realms/shop`");
    }
  }

  /**
   * A statement that binds claims needs a token: from the tool's own {@code jwt} plugin or from
   * {@code server.auth}.
   */
  void checkClaims(Statement statement, Origin origin, Optional<Located<String>> plugin) {
    Optional<String> claim =
        statement.inputNames().stream().filter(n -> n.startsWith(CLAIMS)).findFirst();
    if (claim.isEmpty() || serverAuth.isPresent()) {
      return;
    }
    if (plugin.isPresent() && plugin.get().value().equals(AuthPolicy.JWT)) {
      return;
    }
    diagnostics.error(
        "claims-without-token",
        origin,
        "the statement uses `{{ "
            + claim.get()
            + " }}`, but no access token is verified for this tool"
            + plugin.map(p -> " (its `" + p.value() + "` plugin verifies none)").orElse(""),
        "add `auth: {plugin: jwt, policy: {issuer: …, audience: …}}` to the tool, or turn on"
            + " `server.auth` in .svc");
  }
}
