package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.PlainJWT;
import dev.svc.call.Headers;
import dev.svc.call.VerifiedToken;
import dev.svc.protocol.EndpointAuth;
import dev.svc.protocol.HttpCall;
import dev.svc.testing.ManualClock;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The token checks of {@code server.auth} against a real (tiny) issuer over HTTP. */
class TokenVerifierIT {
  private static IssuerFixture issuer;
  private final ManualClock clock = new ManualClock(Instant.now());

  @BeforeAll
  static void startIssuer() {
    issuer = new IssuerFixture();
  }

  @AfterAll
  static void stopIssuer() {
    issuer.close();
  }

  private TokenVerifier verifier() {
    return new TokenVerifier(issuer.policy(List.of("mcp:tools")), clock);
  }

  private static String reason(TokenCheck check) {
    assertThat(check).isInstanceOf(TokenCheck.Rejected.class);
    return ((TokenCheck.Rejected) check).reason();
  }

  @Test
  void aGoodRsaTokenIsVerifiedWithItsSubjectScopesAndExpiry() {
    String token = issuer.rsaToken(issuer.claims("alice", clock.instant()).build());
    TokenCheck check = verifier().verify(token);
    assertThat(check).isInstanceOf(TokenCheck.Verified.class);
    VerifiedToken verified = ((TokenCheck.Verified) check).token();
    assertThat(verified.subject()).isEqualTo("alice");
    assertThat(verified.scopes()).containsExactlyInAnyOrder("mcp:tools", "profile");
    assertThat(verified.principalId()).isEqualTo("oauth:alice");
    assertThat(verified.claims()).containsEntry("sub", "alice");
    assertThat(verified.claim("iss")).isPresent();
  }

  @Test
  void aGoodEcTokenWithTypeAtJwtAndScpListIsVerified() {
    String token =
        issuer.sign(
            new JWSHeader.Builder(JWSAlgorithm.ES256)
                .keyID("ec-1")
                .type(new JOSEObjectType("at+jwt"))
                .build(),
            issuer
                .claims("bob", clock.instant())
                .claim("scope", null)
                .claim("scp", List.of("mcp:tools"))
                .build(),
            issuer.ec);
    TokenCheck check = verifier().verify(token);
    assertThat(check).isInstanceOf(TokenCheck.Verified.class);
    assertThat(((TokenCheck.Verified) check).token().scopes()).containsExactly("mcp:tools");
  }

  @Test
  void anExpiredTokenIsRejectedButOneExpiredWithinTheLeewayIsNot() {
    Instant now = clock.instant();
    String expired =
        issuer.rsaToken(
            issuer.claims("alice", now).expirationTime(Date.from(now.minusSeconds(120))).build());
    assertThat(reason(verifier().verify(expired))).startsWith("the token expired at ");
    String justExpired =
        issuer.rsaToken(
            issuer.claims("alice", now).expirationTime(Date.from(now.minusSeconds(30))).build());
    assertThat(verifier().verify(justExpired)).isInstanceOf(TokenCheck.Verified.class);
  }

  @Test
  void aTokenNotYetValidIsRejected() {
    Instant now = clock.instant();
    String future =
        issuer.rsaToken(
            issuer.claims("alice", now).notBeforeTime(Date.from(now.plusSeconds(600))).build());
    assertThat(reason(verifier().verify(future))).startsWith("the token is not valid before ");
  }

  @Test
  void aTokenForAnotherAudienceIsRejected() {
    String token =
        issuer.rsaToken(
            issuer.claims("alice", clock.instant()).audience("https://other.test/mcp").build());
    assertThat(reason(verifier().verify(token)))
        .isEqualTo(
            "the token is not for this server: its audience (aud) does not contain `"
                + IssuerFixture.AUDIENCE
                + "`");
  }

  @Test
  void aTokenFromAnotherIssuerIsRejected() {
    String token =
        issuer.rsaToken(
            issuer.claims("alice", clock.instant()).issuer("https://evil.test").build());
    assertThat(reason(verifier().verify(token)))
        .isEqualTo("the token was issued by `https://evil.test`, not by `" + issuer.issuer() + "`");
  }

  @Test
  void aTokenSignedByAnUnknownKeyIsRejectedNamingItsKid() throws JOSEException {
    RSAKey stranger = new RSAKeyGenerator(2048).keyID("stranger").generate();
    String token =
        issuer.sign(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("stranger").build(),
            issuer.claims("alice", clock.instant()).build(),
            stranger);
    assertThat(reason(verifier().verify(token)))
        .isEqualTo("no key of the issuer matches the token (kid `stranger`)");
  }

  @Test
  void aTamperedTokenIsRejected() {
    String token = issuer.rsaToken(issuer.claims("alice", clock.instant()).build());
    String forged = IssuerFixture.tampered(token, json -> json.replace("alice", "admin"));
    assertThat(reason(verifier().verify(forged)))
        .isEqualTo("the token's signature does not verify");
  }

  @Test
  void anUnsignedTokenIsRejected() {
    String none = new PlainJWT(issuer.claims("alice", clock.instant()).build()).serialize();
    assertThat(reason(verifier().verify(none))).isEqualTo("the token is not signed (alg none)");
  }

  @Test
  void anHmacTokenIsRejectedEvenWhenKeyedWithThePublicKey() throws JOSEException {
    byte[] publicKey = issuer.rsa.toRSAPublicKey().getEncoded();
    String token =
        IssuerFixture.hmacToken(issuer.claims("alice", clock.instant()).build(), publicKey);
    assertThat(reason(verifier().verify(token)))
        .isEqualTo(
            "the token is signed with HS256 (a shared secret); accepted: RS256/384/512,"
                + " PS256/384/512, ES256/384/512");
  }

  @Test
  void aTokenOfAnotherTypeIsRejected() {
    String token =
        issuer.sign(
            new JWSHeader.Builder(JWSAlgorithm.RS256)
                .keyID("rsa-1")
                .type(new JOSEObjectType("dpop+jwt"))
                .build(),
            issuer.claims("alice", clock.instant()).build(),
            issuer.rsa);
    assertThat(reason(verifier().verify(token)))
        .isEqualTo("the token's type (typ) is dpop+jwt; accepted: JWT, at+jwt, application/at+jwt");
  }

  @Test
  void anIdTokenIsNotAnAccessTokenEvenForTheAudience() {
    // before: Keycloak's ID token (header typ JWT, claim typ ID), signed with the same keys and
    // naming the audience (the audience is a client's id, or an audience mapper adds it to ID
    // tokens), was admitted as an access token; introspection refused it
    String idToken =
        issuer.rsaToken(issuer.claims("alice", clock.instant()).claim("typ", "ID").build());
    assertThat(reason(verifier().verify(idToken)))
        .isEqualTo("the token is of type `ID`, not an access token");
    String notText =
        issuer.rsaToken(issuer.claims("alice", clock.instant()).claim("typ", 7).build());
    assertThat(reason(verifier().verify(notText)))
        .isEqualTo("the token is of type `7`, not an access token");
    String keycloakAccess =
        issuer.rsaToken(issuer.claims("alice", clock.instant()).claim("typ", "Bearer").build());
    assertThat(verifier().verify(keycloakAccess)).isInstanceOf(TokenCheck.Verified.class);
  }

  @Test
  void aCognitoIdTokenIsNotAnAccessTokenEvenForTheAudience() {
    // Cognito's ID token names the app client in aud and says token_use "id"
    String idToken =
        issuer.rsaToken(issuer.claims("alice", clock.instant()).claim("token_use", "id").build());
    assertThat(reason(verifier().verify(idToken)))
        .isEqualTo("the token's use (token_use) is `id`, not access");
    String access =
        issuer.rsaToken(
            issuer.claims("alice", clock.instant()).claim("token_use", "access").build());
    assertThat(verifier().verify(access)).isInstanceOf(TokenCheck.Verified.class);
  }

  @Test
  void aClaimOfTheWrongTypeIsSaidAsSuchNotAsATypeOrKeyProblem() {
    String token =
        issuer.sign(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rsa-1").build(),
            issuer.claims("alice", clock.instant()).claim("exp", "soon").build(),
            issuer.rsa);
    assertThat(reason(verifier().verify(token)))
        .isEqualTo("the token's claims cannot be read: Unexpected type of JSON object member exp");
  }

  @Test
  void anExpiryOrStartNoClockCanHoldIsSaidAsSuchNotAsAnExpiryIn1969() {
    for (Object exp : List.<Object>of(1e20, 100_000_000_000_000_000L, -1e20)) {
      String token =
          issuer.rsaToken(issuer.claims("alice", clock.instant()).claim("exp", exp).build());
      assertThat(reason(verifier().verify(token)))
          .as("exp %s", exp)
          .isEqualTo("the token's expiry (exp) is not a time");
    }
    String token =
        issuer.rsaToken(issuer.claims("alice", clock.instant()).claim("nbf", 1e20).build());
    assertThat(reason(verifier().verify(token)))
        .isEqualTo("the token's not-before time (nbf) is not a time");
  }

  @Test
  void garbageHugeAndSubjectlessTokensAreRejected() {
    assertThat(reason(verifier().verify("abc.def"))).isEqualTo("the token is not a JWT");
    assertThat(reason(verifier().verify("a".repeat(TokenVerifier.MAX_TOKEN_CHARS + 1))))
        .isEqualTo("the token is longer than 16384 characters");
    String noSubject =
        issuer.rsaToken(issuer.claims("alice", clock.instant()).subject(null).build());
    assertThat(reason(verifier().verify(noSubject))).isEqualTo("the token names no subject (sub)");
  }

  @Test
  void anUnreachableIssuerMakesTheTokenUncheckableNotInvalid() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    String nowhere = "http://127.0.0.1:" + closed;
    TokenVerifier verifier =
        new TokenVerifier(
            new OAuthPolicy(nowhere, IssuerFixture.AUDIENCE, List.of(), Optional.empty()), clock);
    String token = issuer.rsaToken(issuer.claims("alice", clock.instant()).issuer(nowhere).build());
    TokenCheck check = verifier.verify(token);
    assertThat(check).isInstanceOf(TokenCheck.Unavailable.class);
    assertThat(((TokenCheck.Unavailable) check).reason())
        .startsWith(
            "the authorization server's signing keys cannot be fetched: cannot read the"
                + " authorization server's discovery document "
                + nowhere);
    // a JWKS location that does not answer is the same
    TokenVerifier direct =
        new TokenVerifier(
            new OAuthPolicy(
                nowhere,
                IssuerFixture.AUDIENCE,
                List.of(),
                Optional.of(URI.create(nowhere + "/jwks"))),
            clock);
    assertThat(direct.verify(token)).isInstanceOf(TokenCheck.Unavailable.class);
  }

  @Test
  void keysThatCannotBeFetchedLeaveEveryTokenUncheckableNotOnlyTheFirst() {
    // before: the first two got 503, then Nimbus's rate limit ("fetched moments ago") turned
    // every further token into 401 invalid_token, and clients threw good tokens away
    try (IssuerFixture failing = new IssuerFixture()) {
      failing.failKeys(true);
      TokenVerifier verifier = new TokenVerifier(failing.policy(List.of()), clock);
      for (int i = 0; i < 4; i++) {
        String token = failing.rsaToken(failing.claims("alice-" + i, clock.instant()).build());
        TokenCheck check = verifier.verify(token);
        assertThat(check).as("token " + i).isInstanceOf(TokenCheck.Unavailable.class);
      }
      assertThat(failing.keyFetches()).as("still rate-limited").isLessThanOrEqualTo(2);
    }
  }

  @Test
  void keysDribbledOutAreCutOffAfterFiveSecondsAllTold() {
    // before: Nimbus's retriever bounded each read of the socket only; keys sent a byte a second
    // held the request for two minutes (the minute of dribble, and again for the unknown kid)
    try (IssuerFixture dribbling = new IssuerFixture()) {
      dribbling.dribbleKeys(true);
      TokenVerifier verifier = new TokenVerifier(dribbling.policy(List.of()), clock);
      String token = dribbling.rsaToken(dribbling.claims("alice", clock.instant()).build());
      long started = System.nanoTime();
      TokenCheck check = verifier.verify(token);
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(check).isInstanceOf(TokenCheck.Unavailable.class);
      assertThat(((TokenCheck.Unavailable) check).reason())
          .startsWith("the authorization server's signing keys cannot be fetched");
      assertThat(took).isBetween(Duration.ofSeconds(4), Duration.ofSeconds(15));
    }
  }

  @Test
  void aNewKeyIsFetchedOnItsFirstTokenAndUnknownKidsRefreshAtMostOncePerInterval()
      throws JOSEException {
    TokenVerifier verifier =
        new TokenVerifier(
            new OAuthPolicy(
                issuer.issuer(),
                IssuerFixture.AUDIENCE,
                List.of(),
                Optional.empty(),
                Duration.ofMinutes(10)),
            clock);
    assertThat(verifier.verify(issuer.rsaToken(issuer.claims("a", clock.instant()).build())))
        .isInstanceOf(TokenCheck.Verified.class);
    int fetches = issuer.keyFetches();
    RSAKey rotated = new RSAKeyGenerator(2048).keyID("rsa-2").generate();
    issuer.publish(rotated);
    String newToken =
        issuer.sign(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rsa-2").build(),
            issuer.claims("a", clock.instant()).build(),
            rotated);
    assertThat(verifier.verify(newToken)).isInstanceOf(TokenCheck.Verified.class);
    assertThat(issuer.keyFetches()).isEqualTo(fetches + 1);
    RSAKey stranger = new RSAKeyGenerator(2048).keyID("stranger-2").generate();
    for (int i = 0; i < 5; i++) {
      String unknown =
          issuer.sign(
              new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("stranger-2").build(),
              issuer.claims("a" + i, clock.instant()).build(),
              stranger);
      assertThat(verifier.verify(unknown)).isInstanceOf(TokenCheck.Rejected.class);
    }
    assertThat(issuer.keyFetches())
        .as("unknown kids do not make the issuer's keys be fetched again and again")
        .isLessThanOrEqualTo(fetches + 3);
  }

  @Test
  void aRememberedTokenStillExpires() {
    String token = issuer.rsaToken(issuer.claims("alice", clock.instant()).build());
    TokenVerifier verifier = verifier();
    assertThat(verifier.verify(token)).isInstanceOf(TokenCheck.Verified.class);
    assertThat(verifier.verify(token)).isInstanceOf(TokenCheck.Verified.class);
    clock.advance(Duration.ofMinutes(10));
    assertThat(reason(verifier.verify(token))).startsWith("the token expired at ");
  }

  @Test
  void anAdmittedHeaderIsAdmittedAgainWithoutTheHeaderAndNotAfterItsTokenExpires() {
    String token = issuer.rsaToken(issuer.claims("alice", clock.instant()).build());
    EndpointAuth gate = new EndpointAuth(issuer.policy(List.of("mcp:tools")), verifier());
    String header = "Bearer " + token;
    for (int i = 0; i < 2; i++) {
      EndpointAuth.Admission admission = gate.admit(call(header));
      assertThat(admission).isInstanceOf(EndpointAuth.Admission.Admitted.class);
      HttpCall admitted = ((EndpointAuth.Admission.Admitted) admission).call();
      assertThat(admitted.principal().id()).isEqualTo("oauth:alice");
      assertThat(admitted.headers().first("authorization")).isEmpty();
      assertThat(admitted.headers().first("x-kept")).contains("yes");
    }
    // only the exact header is remembered: a tampered token is verified (and refused) afresh
    assertThat(gate.admit(call(header.substring(0, header.length() - 2) + "AA")))
        .isInstanceOf(EndpointAuth.Admission.Refused.class);
    clock.advance(Duration.ofMinutes(10));
    EndpointAuth.Admission late = gate.admit(call(header));
    assertThat(late).isInstanceOf(EndpointAuth.Admission.Refused.class);
    assertThat(((EndpointAuth.Admission.Refused) late).reply().status()).isEqualTo(401);
  }

  @Test
  void aHeaderPaddedWithSpacesIsAdmittedEachTimeThoughNotRemembered() {
    String token = issuer.rsaToken(issuer.claims("carol", clock.instant()).build());
    EndpointAuth gate = new EndpointAuth(issuer.policy(List.of("mcp:tools")), verifier());
    for (int i = 0; i < 3; i++) {
      EndpointAuth.Admission admission = gate.admit(call("Bearer   " + token + " ".repeat(i)));
      assertThat(admission).isInstanceOf(EndpointAuth.Admission.Admitted.class);
      assertThat(((EndpointAuth.Admission.Admitted) admission).call().principal().id())
          .isEqualTo("oauth:carol");
    }
  }

  @Test
  void aHeaderWithoutTheScopeIsNeverRemembered() {
    String token =
        issuer.rsaToken(issuer.claims("bob", clock.instant()).claim("scope", "profile").build());
    EndpointAuth gate = new EndpointAuth(issuer.policy(List.of("mcp:tools")), verifier());
    for (int i = 0; i < 2; i++) {
      EndpointAuth.Admission refused = gate.admit(call("Bearer " + token));
      assertThat(refused).isInstanceOf(EndpointAuth.Admission.Refused.class);
      assertThat(((EndpointAuth.Admission.Refused) refused).reply().status()).isEqualTo(403);
    }
  }

  private static HttpCall call(String authorization) {
    return new HttpCall(
        "POST",
        "/mcp",
        Headers.of("Authorization", authorization, "X-Kept", "yes"),
        new byte[0],
        () -> "http://127.0.0.1",
        "r1",
        "");
  }
}
