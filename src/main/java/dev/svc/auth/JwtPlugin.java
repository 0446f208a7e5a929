package dev.svc.auth;

import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.call.VerifiedToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code jwt}: the call must carry an OAuth access token (a JWT) with the policy's scopes. Without
 * {@code server.auth} the plugin reads {@code Authorization: Bearer} and verifies the token itself
 * ({@link TokenVerifier}: signature, issuer, audience, lifetime); with {@code server.auth} the
 * endpoint verified it already (and took it out of the headers), and the plugin checks the scopes
 * of that token. Either way the verified token goes on with the call: its claims are bound into
 * statements and given to scripts.
 */
public final class JwtPlugin implements AuthPlugin {
  private final Optional<TokenVerifier> verifier;
  private final List<String> scopes;

  private JwtPlugin(Optional<TokenVerifier> verifier, List<String> scopes) {
    this.verifier = verifier;
    this.scopes = List.copyOf(scopes);
  }

  /** A plugin that verifies the call's bearer token with {@code verifier}. */
  public static JwtPlugin verifying(TokenVerifier verifier, List<String> scopes) {
    return new JwtPlugin(Optional.of(verifier), scopes);
  }

  /** A plugin behind {@code server.auth}: it checks the scopes of the token already verified. */
  public static JwtPlugin behindServerAuth(List<String> scopes) {
    return new JwtPlugin(Optional.empty(), scopes);
  }

  /** The policy's {@code scopes}: one string of scopes separated by spaces. */
  public static List<String> scopes(String written) {
    List<String> scopes = new ArrayList<>();
    for (String scope : written.strip().split("\\s+")) {
      if (!scope.isEmpty() && !scopes.contains(scope)) {
        scopes.add(scope);
      }
    }
    return scopes;
  }

  @Override
  public AuthDecision authorize(Caller caller) {
    if (verifier.isEmpty()) {
      return caller
          .verified()
          .map(this::withScopes)
          .orElseGet(() ->
              new AuthDecision.Deny("this tool needs an access token, and the call carries none"));
    }
    String token;
    switch (BearerCredentials.of(caller.headers())) {
      case BearerCredentials.Missing missing -> {
        return new AuthDecision.Deny(
            "this tool needs an OAuth access token: send it as `Authorization: Bearer <token>`");
      }
      case BearerCredentials.Several several -> {
        return new AuthDecision.Deny("the request has several Authorization headers");
      }
      case BearerCredentials.OtherScheme other -> {
        return new AuthDecision.Deny(
            "this tool accepts only Bearer access tokens in the Authorization header");
      }
      case BearerCredentials.Malformed malformed -> {
        return new AuthDecision.Deny(
            "the Authorization header is malformed: write `Bearer <token>`");
      }
      case BearerCredentials.Token bearer -> token = bearer.token();
    }
    return switch (verifier.get().verify(token)) {
      case TokenCheck.Rejected rejected -> new AuthDecision.Deny(rejected.reason());
      case TokenCheck.Unavailable unavailable -> new AuthDecision.Deny(unavailable.reason());
      case TokenCheck.Verified verified -> withScopes(verified.token());
    };
  }

  /**
   * A call whose {@code Authorization} is missing, malformed, of another scheme, or carries a token
   * that does not verify (against the cached keys; an introspection answer is cached for the call's
   * own check); never when the issuer could not be asked, nor behind {@code server.auth}, where the
   * endpoint verified the token and its subject is the caller.
   */
  @Override
  public boolean takesForAGuess(Headers headers) {
    if (verifier.isEmpty()) {
      return false;
    }
    return switch (BearerCredentials.of(headers)) {
      case BearerCredentials.Token bearer ->
          verifier.get().verify(bearer.token()) instanceof TokenCheck.Rejected;
      default -> true;
    };
  }

  private AuthDecision withScopes(VerifiedToken token) {
    List<String> missing = new ArrayList<>(scopes);
    missing.removeAll(token.scopes());
    if (!missing.isEmpty()) {
      return new AuthDecision.Deny(
          "the access token lacks the scope"
              + (missing.size() > 1 ? "s " : " ")
              + String.join(" ", missing.stream().map(s -> "`" + s + "`").toList()));
    }
    return new AuthDecision.Allow(token.principalId(), Optional.of(token));
  }
}
