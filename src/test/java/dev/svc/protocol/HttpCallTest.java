package dev.svc.protocol;

import static dev.svc.model.AuthPolicy.CheckedCredentials.API_KEY;
import static dev.svc.model.AuthPolicy.CheckedCredentials.AUTHORIZATION;
import static dev.svc.model.AuthPolicy.CheckedCredentials.BOTH;
import static dev.svc.model.AuthPolicy.CheckedCredentials.NONE;
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
    String anonymous = from("10.0.0.7", Headers.NONE).rateLimitKey(NONE);
    assertThat(from("10.0.0.7", Headers.of("X-API-Key", "k1")).rateLimitKey(NONE))
        .isEqualTo(from("10.0.0.7", Headers.of("X-API-Key", "k2")).rateLimitKey(NONE))
        .isEqualTo(from("10.0.0.7", Headers.of("Authorization", "Bearer t3")).rateLimitKey(NONE))
        .isEqualTo(anonymous)
        .isEqualTo("ip:10.0.0.7");
    assertThat(from("10.0.0.8", Headers.NONE).rateLimitKey(NONE)).isNotEqualTo(anonymous);
    assertThat(from("", Headers.of("X-API-Key", "k1")).rateLimitKey(NONE)).isEqualTo("anonymous");
  }

  @Test
  void keysAToolsOwnAuthBlockChecksAreCallersOfTheirOwnBehindOneAddress() {
    assertThat(from("10.0.0.7", Headers.of("X-API-Key", "k1")).rateLimitKey(BOTH))
        .isNotEqualTo(from("10.0.0.7", Headers.of("X-API-Key", "k2")).rateLimitKey(BOTH))
        .isNotEqualTo("ip:10.0.0.7");
    assertThat(from("10.0.0.7", Headers.NONE).rateLimitKey(BOTH)).isEqualTo("ip:10.0.0.7");
  }

  @Test
  void aCredentialThePluginDoesNotCheckMakesNoNewCaller() {
    // api_key reads X-API-Key alone: an Authorization beside it is the client's to make up
    String keyed = from("10.0.0.7", Headers.of("X-API-Key", "k1")).rateLimitKey(API_KEY);
    assertThat(
            from("10.0.0.7", Headers.of("X-API-Key", "k1", "Authorization", "Bearer x1"))
                .rateLimitKey(API_KEY))
        .isEqualTo(
            from("10.0.0.7", Headers.of("X-API-Key", "k1", "Authorization", "Bearer x2"))
                .rateLimitKey(API_KEY))
        .isEqualTo(keyed)
        .isNotEqualTo("ip:10.0.0.7");
    // and jwt reads Authorization alone: an X-API-Key beside it likewise
    String bearer =
        from("10.0.0.7", Headers.of("Authorization", "Bearer t1")).rateLimitKey(AUTHORIZATION);
    assertThat(
            from("10.0.0.7", Headers.of("Authorization", "Bearer t1", "X-API-Key", "k9"))
                .rateLimitKey(AUTHORIZATION))
        .isEqualTo(bearer)
        .isNotEqualTo(keyed);
    assertThat(from("10.0.0.7", Headers.of("Authorization", "Bearer t1")).rateLimitKey(API_KEY))
        .isEqualTo("ip:10.0.0.7");
  }

  @Test
  void aVerifiedSubjectIsCountedWhereverItCallsFrom() {
    VerifiedToken alice =
        new VerifiedToken("alice", Set.of(), Instant.parse("2030-01-01T00:00:00Z"));
    assertThat(from("10.0.0.7", Headers.NONE).authenticated(alice).rateLimitKey(NONE))
        .isEqualTo(from("10.0.0.8", Headers.NONE).authenticated(alice).rateLimitKey(NONE))
        .isEqualTo("oauth:alice");
  }
}
