package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.VerifiedToken;
import dev.svc.json.Jackson;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** What an introspection answer (RFC 7662 §2.2) must say for svc to accept the token. */
class IntrospectionAnswerTest {
  private static final String ISSUER = "https://auth.example.com/realms/shop";
  private static final String AUDIENCE = "https://shop.example.com/mcp";
  private static final OAuthPolicy POLICY =
      new OAuthPolicy(ISSUER, AUDIENCE, List.of(), Optional.empty());
  private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");

  /** An answer Keycloak would give for a good access token. */
  private static ObjectNode good() {
    ObjectNode answer = Jackson.MAPPER.createObjectNode();
    answer.put("active", true);
    answer.put("iss", ISSUER);
    answer.putArray("aud").add("account").add(AUDIENCE);
    answer.put("sub", "alice");
    answer.put("exp", NOW.plusSeconds(300).getEpochSecond());
    answer.put("iat", NOW.minusSeconds(10).getEpochSecond());
    answer.put("nbf", NOW.minusSeconds(10).getEpochSecond());
    answer.put("scope", "profile  mcp:tools");
    answer.put("token_type", "Bearer");
    answer.put("typ", "Bearer");
    answer.put("client_id", "svc-client");
    return answer;
  }

  private static TokenCheck check(ObjectNode answer) {
    return IntrospectionAnswer.check(answer, POLICY, NOW);
  }

  private static String rejection(ObjectNode answer) {
    TokenCheck check = check(answer);
    assertThat(check).isInstanceOf(TokenCheck.Rejected.class);
    return ((TokenCheck.Rejected) check).reason();
  }

  @Test
  void anActiveAnswerForThisServerGivesTheSubjectScopesAndExpiry() {
    TokenCheck check = check(good());
    assertThat(check).isInstanceOf(TokenCheck.Verified.class);
    VerifiedToken token = ((TokenCheck.Verified) check).token();
    assertThat(token.subject()).isEqualTo("alice");
    assertThat(token.scopes()).containsExactlyInAnyOrder("profile", "mcp:tools");
    assertThat(token.expiresAt()).isEqualTo(NOW.plusSeconds(300));
    assertThat(token.claim("sub")).contains("alice");
  }

  @Test
  void theOptionalMembersMayBeAbsentAndAudMayBeOneString() {
    ObjectNode answer = good();
    answer.remove(List.of("iss", "nbf", "scope", "token_type", "typ", "iat", "client_id"));
    answer.put("aud", AUDIENCE);
    answer.putArray("scp").add("mcp:read");
    TokenCheck check = check(answer);
    assertThat(check).isInstanceOf(TokenCheck.Verified.class);
    assertThat(((TokenCheck.Verified) check).token().scopes()).containsExactly("mcp:read");
  }

  @Test
  void anInactiveTokenIsRejected() {
    ObjectNode answer = Jackson.MAPPER.createObjectNode().put("active", false);
    assertThat(rejection(answer))
        .isEqualTo(
            "the authorization server says the token is not active (expired, revoked or unknown)");
  }

  @Test
  void anAnswerWithoutABooleanActiveIsNoAnswerNotARejection() {
    ObjectNode answer = good();
    answer.put("active", "true");
    assertThat(check(answer))
        .isEqualTo(
            new TokenCheck.Unavailable(
                "the introspection endpoint's answer has no boolean `active`",
                TokenCheck.INTROSPECTION_OUT_OF_REACH));
    assertThat(IntrospectionAnswer.check(Jackson.MAPPER.readTree("[true]"), POLICY, NOW))
        .isInstanceOf(TokenCheck.Unavailable.class);
  }

  @Test
  void anAnswerWithoutAudIsRefusedToKeepTheAudienceBinding() {
    ObjectNode answer = good();
    answer.remove("aud");
    assertThat(rejection(answer))
        .isEqualTo(
            "the authorization server does not say whom the token is for (no aud), so it cannot"
                + " be taken as one for this server");
  }

  @Test
  void aTokenForAnotherAudienceIsRejected() {
    ObjectNode answer = good();
    answer.putArray("aud").add("https://other.example.com/mcp");
    assertThat(rejection(answer))
        .isEqualTo(
            "the token is not for this server: its audience (aud) does not contain `"
                + AUDIENCE
                + "`");
  }

  @Test
  void aTokenFromAnotherIssuerIsRejected() {
    ObjectNode answer = good();
    answer.put("iss", "https://evil.example.com");
    assertThat(rejection(answer))
        .isEqualTo("the token was issued by `https://evil.example.com`, not by `" + ISSUER + "`");
  }

  @Test
  void expiryIsRequiredAndHoldsWithTheLeeway() {
    ObjectNode answer = good();
    answer.remove("exp");
    assertThat(rejection(answer)).isEqualTo("the token has no expiry (exp)");
    answer.put("exp", NOW.minusSeconds(30).getEpochSecond());
    assertThat(check(answer)).as("within the leeway").isInstanceOf(TokenCheck.Verified.class);
    answer.put("exp", NOW.minusSeconds(61).getEpochSecond());
    assertThat(rejection(answer)).startsWith("the token expired at ");
    answer.put("exp", "soon");
    assertThat(rejection(answer)).isEqualTo("the token has no expiry (exp)");
  }

  @Test
  void timesNoClockCanHoldAreRejectedAsSuch() {
    for (String exp : List.of("1e20", "-1e20", "99999999999999999999", "1e400")) {
      ObjectNode answer = good();
      answer.set("exp", Jackson.MAPPER.readTree(exp));
      assertThat(rejection(answer)).as(exp).isEqualTo("the token's expiry (exp) is not a time");
    }
    ObjectNode answer = good();
    answer.set("nbf", Jackson.MAPPER.readTree("1e20"));
    assertThat(rejection(answer)).isEqualTo("the token's not-before time (nbf) is not a time");
    answer = good();
    answer.set(
        "exp",
        Jackson.MAPPER.readTree(Long.toString(NOW.plusSeconds(300).getEpochSecond()) + ".5"));
    assertThat(check(answer))
        .as("a fractional NumericDate")
        .isInstanceOf(TokenCheck.Verified.class);
  }

  @Test
  void aTokenNotYetValidIsRejected() {
    ObjectNode answer = good();
    answer.put("nbf", NOW.plusSeconds(120).getEpochSecond());
    assertThat(rejection(answer)).startsWith("the token is not valid before ");
  }

  @Test
  void aSubjectIsRequired() {
    ObjectNode answer = good();
    answer.remove("sub");
    assertThat(rejection(answer)).isEqualTo("the token names no subject (sub)");
    answer.put("sub", " ");
    assertThat(rejection(answer)).isEqualTo("the token names no subject (sub)");
  }

  @Test
  void refreshTokensAndSenderConstrainedTypesAreNotBearerAccessTokens() {
    ObjectNode refresh = good();
    refresh.put("typ", "Refresh");
    assertThat(rejection(refresh)).isEqualTo("the token is of type `Refresh`, not an access token");
    ObjectNode dpop = good();
    dpop.put("token_type", "DPoP");
    assertThat(rejection(dpop)).isEqualTo("the token is of type `DPoP`, not a bearer access token");
    ObjectNode lower = good();
    lower.put("token_type", "bearer");
    lower.put("typ", "at+jwt");
    assertThat(check(lower)).isInstanceOf(TokenCheck.Verified.class);
  }

  @Test
  void strangeValuesAreShownShortAndPrintable() {
    ObjectNode answer = good();
    answer.put("iss", "x".repeat(300) + "\n");
    assertThat(rejection(answer))
        .startsWith("the token was issued by `" + "x".repeat(100) + "…`")
        .doesNotContain("\n");
  }
}
