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
}
