package dev.svc.runtime;

import dev.svc.auth.JwtPlugin;
import dev.svc.auth.OAuthPolicy;
import dev.svc.auth.TokenVerifier;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.log.Log;
import dev.svc.model.AuthPolicy;
import dev.svc.model.OAuthUrls;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Makes the {@code jwt} auth plugins of one runtime. Tools whose policies name the same issuer,
 * audience and keys share one {@link TokenVerifier}, so the issuer's keys are fetched once and a
 * token verified for one tool is known to the others.
 */
final class JwtPlugins {
  private static final Log LOG = Log.tagged("auth");

  private final boolean serverAuth;
  private final Map<OAuthPolicy, TokenVerifier> verifiers = new HashMap<>();

  /**
   * @param serverAuth whether {@code server.auth} verifies every request's token already
   */
  JwtPlugins(boolean serverAuth) {
    this.serverAuth = serverAuth;
  }

  /**
   * The plugin of one tool.
   *
   * @param written the policy as compiled (for the origins of problems)
   * @param resolved its values, env placeholders filled in
   * @param problems where a missing or unusable value is reported
   */
  Optional<JwtPlugin> plugin(
      AuthPolicy written, Map<String, String> resolved, List<Diagnostic> problems) {
    List<String> scopes = JwtPlugin.scopes(resolved.getOrDefault(AuthPolicy.JWT_SCOPES, ""));
    if (serverAuth) {
      return Optional.of(JwtPlugin.behindServerAuth(scopes));
    }
    Optional<String> issuer = required(written, resolved, AuthPolicy.JWT_ISSUER, problems);
    Optional<String> audience = required(written, resolved, AuthPolicy.JWT_AUDIENCE, problems);
    issuer.ifPresent(i -> url(i, written, AuthPolicy.JWT_ISSUER, problems));
    Optional<URI> jwks = Optional.empty();
    if (resolved.containsKey(AuthPolicy.JWT_JWKS_URI)) {
      jwks = url(resolved.get(AuthPolicy.JWT_JWKS_URI), written, AuthPolicy.JWT_JWKS_URI, problems);
      if (jwks.isEmpty()) {
        return Optional.empty();
      }
    }
    if (issuer.isEmpty() || audience.isEmpty()) {
      return Optional.empty();
    }
    // scopes are the plugin's own check: the verifier is shared by policies that differ in them
    OAuthPolicy policy = new OAuthPolicy(issuer.get(), audience.get(), List.of(), jwks);
    return Optional.of(
        JwtPlugin.verifying(verifiers.computeIfAbsent(policy, TokenVerifier::new), scopes));
  }

  private static Optional<String> required(
      AuthPolicy written, Map<String, String> resolved, String key, List<Diagnostic> problems) {
    String value = resolved.getOrDefault(key, "").strip();
    if (value.isEmpty() && written.policy().containsKey(key)) {
      // the compiler saw the key: only its variables can have made it empty
      problems.add(
          Diagnostic.error(
              "invalid-auth-policy",
              written.policy().get(key).origin(),
              "`policy."
                  + key
                  + "` of the `jwt` plugin is empty once its variables are filled in"));
    }
    return value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  private static Optional<URI> url(
      String text, AuthPolicy written, String key, List<Diagnostic> problems) {
    return OAuthUrls.usable(
        text,
        written.policy().get(key).origin(),
        "`policy." + key + "` of a jwt auth plugin",
        "keys",
        problems);
  }
}
