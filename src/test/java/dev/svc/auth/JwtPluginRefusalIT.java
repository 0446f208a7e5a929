package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Headers;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the {@code jwt} plugin tells a tool's rate limit before the call runs: a token it would
 * refuse (made up, tampered, of another scheme) is no caller of its own, so a client sending a new
 * one with each call is limited by its address and leaves no window per token. Against a real
 * (tiny) issuer over HTTP.
 */
class JwtPluginRefusalIT {
  private static IssuerFixture issuer;

  @BeforeAll
  static void startIssuer() {
    issuer = new IssuerFixture();
  }

  @AfterAll
  static void stopIssuer() {
    issuer.close();
  }

  @Test
  void aTokenThatDoesNotVerifyIsRefusedOutrightAndAValidOneIsNot() {
    JwtPlugin plugin =
        JwtPlugin.verifying(new TokenVerifier(issuer.policy(List.of())), List.of("profile"));
    String valid = issuer.rsaToken(issuer.claims("alice", Instant.now()).build());
    assertThat(plugin.takesForAGuess(Headers.of("Authorization", "Bearer " + valid))).isFalse();

    String tampered = valid.substring(0, valid.length() - 4) + "AAAA";
    for (String made :
        List.of("Bearer " + tampered, "Bearer made-up-1", "Bearer a.b.c", "Basic eDp5")) {
      assertThat(plugin.takesForAGuess(Headers.of("Authorization", made))).as(made).isTrue();
    }
    assertThat(plugin.takesForAGuess(Headers.NONE)).isTrue();
  }

  @Test
  void behindServerAuthTheEndpointDecidesAndThePluginRefusesNothingOutright() {
    assertThat(
            JwtPlugin.behindServerAuth(List.of("profile"))
                .takesForAGuess(Headers.of("Authorization", "Bearer made-up")))
        .isFalse();
  }
}
