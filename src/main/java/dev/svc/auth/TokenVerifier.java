package dev.svc.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.svc.call.ClientText;
import dev.svc.call.VerifiedToken;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Verifies OAuth access tokens as an OAuth 2.1 resource server (§5.2) with JWT access tokens (RFC
 * 9068 §4): the signature with one of the issuer's keys and an allowed asymmetric algorithm, the
 * type (the header's {@code typ}, Keycloak's {@code typ} claim and Cognito's {@code token_use},
 * which tell their ID tokens apart), {@code iss}, {@code aud} (RFC 8707), {@code exp} and {@code
 * nbf} with {@link #LEEWAY}, and a {@code sub}. Scopes are not checked here: {@link
 * VerifiedToken#scopes()} says what the token may do.
 *
 * <p>Tokens it verified are remembered by their SHA-256 until they expire (at most {@link
 * #CACHE_SIZE} of them), so a client calling with the same token does not pay for a signature check
 * each time. The token itself is never kept, logged or put in a message.
 *
 * <p>With {@link OAuthPolicy#introspection()}, tokens that are not JWTs (or all tokens, {@code
 * tokens: all}) are instead judged by the issuer, through {@link TokenIntrospector}.
 */
public final class TokenVerifier {
  public static final Duration LEEWAY = Duration.ofSeconds(60);
  public static final int CACHE_SIZE = 10_000;

  /** Longer tokens are refused unread (real ones are a few KiB). */
  public static final int MAX_TOKEN_CHARS = 16 * 1024;

  /**
   * RSA, RSA-PSS and ECDSA. Never {@code none}, never HMAC (its key would be the issuer's public
   * key, which anybody has). EdDSA is not listed: Nimbus verifies it only with Google Tink, which
   * svc does not ship.
   */
  static final Set<JWSAlgorithm> ALGORITHMS =
      Set.of(
          JWSAlgorithm.RS256,
          JWSAlgorithm.RS384,
          JWSAlgorithm.RS512,
          JWSAlgorithm.PS256,
          JWSAlgorithm.PS384,
          JWSAlgorithm.PS512,
          JWSAlgorithm.ES256,
          JWSAlgorithm.ES384,
          JWSAlgorithm.ES512);

  private final OAuthPolicy policy;
  private final Clock clock;
  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
  private final JWKSource<SecurityContext> keys;
  private final Cache<String, VerifiedToken> verified;
  private final Optional<TokenIntrospector> introspector;

  public TokenVerifier(OAuthPolicy policy) {
    this(policy, Clock.systemUTC());
  }

  TokenVerifier(OAuthPolicy policy, Clock clock) {
    this(policy, clock, new IssuerKeys(policy, clock));
  }

  TokenVerifier(OAuthPolicy policy, Clock clock, JWKSource<SecurityContext> keys) {
    this(
        policy,
        clock,
        keys,
        policy.introspection().map(settings -> new TokenIntrospector(policy, settings, clock)));
  }

  TokenVerifier(
      OAuthPolicy policy,
      Clock clock,
      JWKSource<SecurityContext> keys,
      Optional<TokenIntrospector> introspector) {
    this.policy = policy;
    this.clock = clock;
    this.introspector = introspector;
    this.keys = keys;
    // Keycloak writes typ JWT, RFC 9068 says at+jwt; typ is optional in JWTs (RFC 7519 §5.1)
    processor.setJWSTypeVerifier(
        new DefaultJOSEObjectTypeVerifier<>(
            JOSEObjectType.JWT,
            new JOSEObjectType("at+jwt"),
            new JOSEObjectType("application/at+jwt"),
            null));
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
    processor.setJWTClaimsSetVerifier((claims, context) -> {}); // checked below, with our clock
    this.verified =
        Caffeine.newBuilder()
            .maximumSize(CACHE_SIZE)
            .expireAfter(
                Expiry.<String, VerifiedToken>creating((key, token) ->
                    Duration.between(clock.instant(), token.expiresAt().plus(LEEWAY))))
            .build();
  }

  /**
   * A memo of the headers admitted with this verifier's tokens, on its clock; empty with
   * introspection, whose answers may change before a token expires (revocation).
   */
  public Optional<AdmittedHeaders> admittedHeaders() {
    return introspector.isPresent() ? Optional.empty() : Optional.of(new AdmittedHeaders(clock));
  }

  /** Checks one token (the credentials of {@code Authorization: Bearer}). */
  public TokenCheck verify(String token) {
    if (token.length() > MAX_TOKEN_CHARS) {
      return new TokenCheck.Rejected("the token is longer than " + MAX_TOKEN_CHARS + " characters");
    }
    String hash = sha256(token);
    if (introspector.isPresent()
        && (policy.introspection().orElseThrow().everyToken() || !isSignedJwt(token))) {
      return introspector.get().check(token, hash);
    }
    VerifiedToken known = verified.getIfPresent(hash);
    Instant now = clock.instant();
    if (known != null && now.isBefore(known.expiresAt().plus(LEEWAY))) {
      return new TokenCheck.Verified(known);
    }
    TokenCheck check = check(token, now);
    if (check instanceof TokenCheck.Verified(VerifiedToken token1)) {
      verified.put(hash, token1);
    }
    return check;
  }

  private TokenCheck check(String token, Instant now) {
    JWT jwt;
    try {
      jwt = JWTParser.parse(token);
    } catch (ParseException e) {
      return new TokenCheck.Rejected("the token is not a JWT");
    }
    SignedJWT signed;
    switch (jwt) {
      case PlainJWT plain -> {
        return new TokenCheck.Rejected("the token is not signed (alg none)");
      }
      case EncryptedJWT encrypted -> {
        return new TokenCheck.Rejected("encrypted tokens are not accepted");
      }
      case SignedJWT s -> signed = s;
      default -> {
        return new TokenCheck.Rejected("the token is not a JWT");
      }
    }
    JWSAlgorithm algorithm = signed.getHeader().getAlgorithm();
    if (!ALGORITHMS.contains(algorithm)) {
      return new TokenCheck.Rejected(
          "the token is signed with "
              + algorithm
              + (JWSAlgorithm.Family.HMAC_SHA.contains(algorithm) ? " (a shared secret)" : "")
              + "; accepted: RS256/384/512, PS256/384/512, ES256/384/512");
    }
    JWTClaimsSet claims;
    try {
      claims = processor.process(signed, null);
    } catch (BadJWSException e) {
      return new TokenCheck.Rejected("the token's signature does not verify");
    } catch (BadJOSEException e) {
      String message = String.valueOf(e.getMessage());
      if (message.contains("header typ")) {
        return new TokenCheck.Rejected(
            "the token's type (typ) is "
                + signed.getHeader().getType()
                + "; accepted: JWT, at+jwt, application/at+jwt");
      }
      if (message.contains("matching key")) {
        return new TokenCheck.Rejected(
            "no key of the issuer matches the token"
                + Optional.ofNullable(signed.getHeader().getKeyID())
                    .map(kid -> " (kid `" + ClientText.printable(kid) + "`)")
                    .orElse(" (it names no kid)"));
      }
      // a claim of the wrong type ("exp": "soon", "aud": 123) or a payload that is not a JSON
      // object: Nimbus's own words, cut and made printable (they may quote the token)
      return new TokenCheck.Rejected(
          "the token's claims cannot be read: " + ClientText.printable(message));
    } catch (RateLimitReachedException e) {
      if (keys instanceof IssuerKeys issuer && issuer.fetchFailing()) {
        return new TokenCheck.Unavailable(
            "the authorization server's signing keys cannot be fetched (the last try failed;"
                + " svc tries again at most every "
                + policy.refreshInterval().toSeconds()
                + " s)");
      }
      return new TokenCheck.Rejected(
          "no key of the issuer matches the token (its keys were fetched moments ago)");
    } catch (JOSEException e) {
      return new TokenCheck.Unavailable(
          "the authorization server's signing keys cannot be fetched: "
              + String.valueOf(e.getMessage()));
    }
    return claims(claims, signed, now);
  }

  private TokenCheck claims(JWTClaimsSet claims, SignedJWT signed, Instant now) {
    if (!policy.issuer().equals(claims.getIssuer())) {
      return new TokenCheck.Rejected(
          "the token was issued by "
              + Optional.ofNullable(claims.getIssuer())
                  .map(i -> "`" + ClientText.printable(i) + "`")
                  .orElse("nobody (no iss)")
              + ", not by `"
              + policy.issuer()
              + "`");
    }
    List<String> audience = claims.getAudience();
    if (!audience.contains(policy.audience())) {
      return new TokenCheck.Rejected(
          "the token is not for this server: its audience (aud) does not contain `"
              + policy.audience()
              + "`");
    }
    // Keycloak signs its ID tokens with the same keys, with typ JWT in the header and "ID" in the
    // payload: an ID token whose aud names the audience (the client id, or an audience mapper set
    // to add to ID tokens) is not an access token; introspection refuses it the same way
    Object typ = claims.getClaim("typ");
    if (typ != null
        && !(typ instanceof String text
            && IntrospectionAnswer.ACCESS_TOKEN_TYPS.contains(text.toLowerCase(Locale.ROOT)))) {
      return new TokenCheck.Rejected(
          "the token is of type `"
              + ClientText.printable(String.valueOf(typ))
              + "`, not an access token");
    }
    // Amazon Cognito says the same in token_use: "id" for its ID tokens, whose aud is the app
    // client's id; its access tokens say "access"
    Object use = claims.getClaim("token_use");
    if (use != null && !"access".equals(use)) {
      return new TokenCheck.Rejected(
          "the token's use (token_use) is `"
              + ClientText.printable(String.valueOf(use))
              + "`, not access");
    }
    Date expiry = claims.getExpirationTime();
    if (expiry == null) {
      return new TokenCheck.Rejected("the token has no expiry (exp)");
    }
    // Nimbus has turned the seconds into milliseconds in a long: 1e20 wraps around to 1969
    Map<String, Object> payload = signed.getPayload().toJSONObject();
    if (!(payload.get("exp") instanceof Number exp) || NumericDate.of(exp).isEmpty()) {
      return new TokenCheck.Rejected("the token's expiry (exp) is not a time");
    }
    if (payload.get("nbf") instanceof Number nbf && NumericDate.of(nbf).isEmpty()) {
      return new TokenCheck.Rejected("the token's not-before time (nbf) is not a time");
    }
    if (!now.isBefore(expiry.toInstant().plus(LEEWAY))) {
      return new TokenCheck.Rejected("the token expired at " + expiry.toInstant());
    }
    Date notBefore = claims.getNotBeforeTime();
    if (notBefore != null && now.plus(LEEWAY).isBefore(notBefore.toInstant())) {
      return new TokenCheck.Rejected("the token is not valid before " + notBefore.toInstant());
    }
    String subject = claims.getSubject();
    if (subject == null || subject.isBlank()) {
      return new TokenCheck.Rejected("the token names no subject (sub)");
    }
    return new TokenCheck.Verified(
        new VerifiedToken(subject, scopes(claims), expiry.toInstant(), claims.toJSONObject()));
  }

  /** RFC 9068 §2.2.3 {@code scope} (space-separated), or the {@code scp} list some servers use. */
  private static Set<String> scopes(JWTClaimsSet claims) {
    Set<String> scopes = new LinkedHashSet<>();
    Object scope = claims.getClaim("scope");
    if (scope instanceof String text) {
      for (String one : text.split(" ")) {
        if (!one.isEmpty()) {
          scopes.add(one);
        }
      }
    }
    Object scp = claims.getClaim("scp");
    if (scp instanceof List<?> list) {
      list.stream().filter(String.class::isInstance).map(String.class::cast).forEach(scopes::add);
    } else if (scp instanceof String text) {
      scopes.addAll(List.of(text.split(" ")));
    }
    return scopes;
  }

  /**
   * Whether {@code token} looks like a JWS (RFC 7515 §7.1: three parts, a JSON header naming an
   * {@code alg}), which svc verifies itself; anything else (an opaque token, an encrypted JWT) is
   * for the issuer to judge when introspection is configured.
   */
  static boolean isSignedJwt(String token) {
    int first = token.indexOf('.');
    int second = first < 0 ? -1 : token.indexOf('.', first + 1);
    if (second < 0 || token.indexOf('.', second + 1) >= 0) {
      return false;
    }
    try {
      JWT jwt = JWTParser.parse(token);
      return jwt instanceof SignedJWT || jwt instanceof PlainJWT;
    } catch (ParseException e) {
      return false;
    }
  }

  /** Copied for each hash: cloning skips the provider lookup of {@code getInstance}. */
  private static final MessageDigest SHA_256;

  static {
    try {
      SHA_256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  static String sha256(String token) {
    MessageDigest digest;
    try {
      digest = (MessageDigest) SHA_256.clone();
    } catch (CloneNotSupportedException e) {
      try {
        digest = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException impossible) {
        throw new IllegalStateException(impossible);
      }
    }
    return HexFormat.of().formatHex(digest.digest(token.getBytes(StandardCharsets.UTF_8)));
  }
}
