package dev.svc.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.auth.Principal;
import dev.svc.call.Headers;
import dev.svc.call.VerifiedToken;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HttpCallTest {
  private static HttpCall call(Headers headers) {
    return new HttpCall("POST", "/mcp", headers, new byte[0], () -> "http://x", "r1", "");
  }

  @Test
  void withoutServerAuthThePrincipalComesFromTheCredentialsAndTheHeaderStays() {
    HttpCall call = call(Headers.of("Authorization", "Bearer abc", "Accept", "*/*"));
    assertThat(call.verified()).isEmpty();
    assertThat(call.principal()).isEqualTo(Principal.fromCredentials(call.headers()));
    assertThat(call.headers().first("authorization")).hasValue("Bearer abc");
  }

  @Test
  void anAuthenticatedCallActsForItsSubjectAndNoLongerCarriesTheToken() {
    HttpCall call =
        call(Headers.of(
                "Authorization", "Bearer abc", "AUTHORIZATION", "Bearer d", "Accept", "*/*"))
            .authenticated(
                new VerifiedToken("alice", Set.of(), Instant.parse("2030-01-01T00:00:00Z")));
    assertThat(call.principal().id()).isEqualTo("oauth:alice");
    assertThat(call.headers().first("authorization")).isEmpty();
    assertThat(call.headers().forScripts()).containsOnlyKeys("accept");
  }

  private static HttpCall from(String address, Headers headers) {
    return new HttpCall(
        "POST",
        "/mcp",
        headers,
        new byte[0],
        () -> "http://x",
        "r1",
        "",
        java.util.Optional.empty(),
        address);
  }

  @Test
  void unverifiedCredentialsDoNotMakeANewCallerForRateLimits() {
    String anonymous = from("10.0.0.7", Headers.NONE).rateLimitKey(false);
    assertThat(from("10.0.0.7", Headers.of("X-API-Key", "k1")).rateLimitKey(false))
        .isEqualTo(from("10.0.0.7", Headers.of("X-API-Key", "k2")).rateLimitKey(false))
        .isEqualTo(from("10.0.0.7", Headers.of("Authorization", "Bearer t3")).rateLimitKey(false))
        .isEqualTo(anonymous)
        .isEqualTo("ip:10.0.0.7");
    assertThat(from("10.0.0.8", Headers.NONE).rateLimitKey(false)).isNotEqualTo(anonymous);
    assertThat(from("", Headers.of("X-API-Key", "k1")).rateLimitKey(false)).isEqualTo("anonymous");
  }

  @Test
  void keysAToolsOwnAuthBlockChecksAreCallersOfTheirOwnBehindOneAddress() {
    assertThat(from("10.0.0.7", Headers.of("X-API-Key", "k1")).rateLimitKey(true))
        .isNotEqualTo(from("10.0.0.7", Headers.of("X-API-Key", "k2")).rateLimitKey(true))
        .isNotEqualTo("ip:10.0.0.7");
    assertThat(from("10.0.0.7", Headers.NONE).rateLimitKey(true)).isEqualTo("ip:10.0.0.7");
  }

  @Test
  void aVerifiedSubjectIsCountedWhereverItCallsFrom() {
    VerifiedToken alice =
        new VerifiedToken("alice", Set.of(), Instant.parse("2030-01-01T00:00:00Z"));
    assertThat(from("10.0.0.7", Headers.NONE).authenticated(alice).rateLimitKey(false))
        .isEqualTo(from("10.0.0.8", Headers.NONE).authenticated(alice).rateLimitKey(false))
        .isEqualTo("oauth:alice");
  }
}
