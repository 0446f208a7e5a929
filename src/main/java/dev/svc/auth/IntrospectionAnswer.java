package dev.svc.auth;

import dev.svc.call.ClientText;
import dev.svc.call.VerifiedToken;
import dev.svc.json.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What the authorization server's answer to a token introspection (RFC 7662 §2.2) means for svc:
 * the same duties as for a JWT (OAuth 2.1 §5.2, RFC 9068 §4), checked on the answer's members.
 *
 * <ul>
 *   <li>{@code active} must be {@code true}; an answer without a boolean {@code active} is not an
 *       answer (the server is then {@link TokenCheck.Unavailable unavailable}, not the token bad);
 *   <li>{@code token_type}, when given, names a bearer access token; Keycloak's {@code typ}, when
 *       given, is not a refresh or ID token;
 *   <li>{@code iss}, when given, is the issuer (one introspection endpoint may serve several);
 *   <li>{@code aud} must be given and contain the audience: RFC 7662 makes it optional, but without
 *       it a token issued for another resource would be accepted here (RFC 8707 audience binding);
 *   <li>{@code exp} must be given (it bounds how long svc trusts the answer) and, like {@code nbf},
 *       hold with {@link TokenVerifier#LEEWAY};
 *   <li>{@code sub} must be given: it is who calls.
 * </ul>
 */
final class IntrospectionAnswer {
  private IntrospectionAnswer() {}

  private static final Set<String> ACCESS_TOKEN_TYPES =
      Set.of("bearer", "access_token", "urn:ietf:params:oauth:token-type:access_token");

  /**
   * Keycloak's {@code typ} of an access token (its JWTs and introspection answers carry it); {@link
   * TokenVerifier} holds a JWT's {@code typ} claim to the same list.
   */
  static final Set<String> ACCESS_TOKEN_TYPS =
      Set.of("bearer", "jwt", "at+jwt", "application/at+jwt");

  static TokenCheck check(JsonNode answer, OAuthPolicy policy, Instant now) {
    if (!answer.isObject()) {
      return new TokenCheck.Unavailable(
          "the introspection endpoint answered JSON that is not an object",
          TokenCheck.INTROSPECTION_OUT_OF_REACH);
    }
    JsonNode active = answer.path("active");
    if (!active.isBoolean()) {
      return new TokenCheck.Unavailable(
          "the introspection endpoint's answer has no boolean `active`",
          TokenCheck.INTROSPECTION_OUT_OF_REACH);
    }
    if (!active.booleanValue()) {
      return new TokenCheck.Rejected(
          "the authorization server says the token is not active (expired, revoked or unknown)");
    }
    JsonNode tokenType = answer.path("token_type");
    if (!tokenType.isMissingNode()
        && !(tokenType.isString()
            && ACCESS_TOKEN_TYPES.contains(tokenType.stringValue().toLowerCase(Locale.ROOT)))) {
      return new TokenCheck.Rejected(
          "the token is of type " + shown(tokenType) + ", not a bearer access token");
    }
    JsonNode typ = answer.path("typ");
    if (!typ.isMissingNode()
        && !(typ.isString()
            && ACCESS_TOKEN_TYPS.contains(typ.stringValue().toLowerCase(Locale.ROOT)))) {
      return new TokenCheck.Rejected(
          "the token is of type " + shown(typ) + ", not an access token");
    }
    JsonNode issuer = answer.path("iss");
    if (!issuer.isMissingNode()
        && !(issuer.isString() && issuer.stringValue().equals(policy.issuer()))) {
      return new TokenCheck.Rejected(
          "the token was issued by " + shown(issuer) + ", not by `" + policy.issuer() + "`");
    }
    List<String> audience = strings(answer.path("aud"));
    if (audience.isEmpty()) {
      return new TokenCheck.Rejected(
          "the authorization server does not say whom the token is for (no aud), so it cannot be"
              + " taken as one for this server");
    }
    if (!audience.contains(policy.audience())) {
      return new TokenCheck.Rejected(
          "the token is not for this server: its audience (aud) does not contain `"
              + policy.audience()
              + "`");
    }
    JsonNode exp = answer.path("exp");
    if (!exp.isNumber()) {
      return new TokenCheck.Rejected("the token has no expiry (exp)");
    }
    Optional<Instant> expires = NumericDate.of(exp);
    if (expires.isEmpty()) {
      return new TokenCheck.Rejected("the token's expiry (exp) is not a time");
    }
    Instant expiry = expires.get();
    if (!now.isBefore(expiry.plus(TokenVerifier.LEEWAY))) {
      return new TokenCheck.Rejected("the token expired at " + expiry);
    }
    JsonNode nbf = answer.path("nbf");
    if (nbf.isNumber()) {
      Optional<Instant> notBefore = NumericDate.of(nbf);
      if (notBefore.isEmpty()) {
        return new TokenCheck.Rejected("the token's not-before time (nbf) is not a time");
      }
      if (now.plus(TokenVerifier.LEEWAY).isBefore(notBefore.get())) {
        return new TokenCheck.Rejected("the token is not valid before " + notBefore.get());
      }
    }
    JsonNode subject = answer.path("sub");
    if (!subject.isString() || subject.stringValue().isBlank()) {
      return new TokenCheck.Rejected("the token names no subject (sub)");
    }
    // the answer's members are the token's claims (RFC 7662 §2.2), as a JWT's payload would be
    @SuppressWarnings("unchecked")
    Map<String, Object> claims = Json.MAPPER.convertValue(answer, Map.class);
    return new TokenCheck.Verified(
        new VerifiedToken(subject.stringValue(), scopes(answer), expiry, claims));
  }

  /** RFC 7662 §2.2 {@code scope} (space-separated), or the {@code scp} list some servers use. */
  private static Set<String> scopes(JsonNode answer) {
    Set<String> scopes = new LinkedHashSet<>();
    JsonNode scope = answer.path("scope");
    if (scope.isString()) {
      for (String one : scope.stringValue().split(" ")) {
        if (!one.isEmpty()) {
          scopes.add(one);
        }
      }
    }
    scopes.addAll(strings(answer.path("scp")));
    return scopes;
  }

  /** A string, or the strings of an array (RFC 7519 §4.1.3: {@code aud} may be either). */
  private static List<String> strings(JsonNode node) {
    List<String> values = new ArrayList<>();
    if (node.isString()) {
      values.add(node.stringValue());
    } else if (node.isArray()) {
      for (JsonNode item : node.values()) {
        if (item.isString()) {
          values.add(item.stringValue());
        }
      }
    }
    return values;
  }

  /** A member's value in a message: quoted, {@linkplain ClientText#printable printable}. */
  private static String shown(JsonNode value) {
    return "`"
        + ClientText.printable(value.isString() ? value.stringValue() : value.toString())
        + "`";
  }
}
