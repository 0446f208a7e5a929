package dev.svc.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How {@code server.auth} reads {@code Authorization: Bearer …} (RFC 6750 §2.1). */
class EndpointAuthTest {
  private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln-_~+/";

  @Test
  void theSchemeIsCaseInsensitiveAndSpacesAroundTheTokenAreAllowed() {
    assertThat(EndpointAuth.bearerToken("Bearer " + TOKEN)).contains(TOKEN);
    assertThat(EndpointAuth.bearerToken("bearer " + TOKEN)).contains(TOKEN);
    assertThat(EndpointAuth.bearerToken("BEARER   " + TOKEN + "  ")).contains(TOKEN);
  }

  @Test
  void paddingIsPartOfTheTokenButOnlyAtItsEnd() {
    assertThat(EndpointAuth.bearerToken("Bearer abc==")).contains("abc==");
    assertThat(EndpointAuth.bearerToken("Bearer a=bc")).isEmpty();
    assertThat(EndpointAuth.bearerToken("Bearer ==")).isEmpty();
  }

  @Test
  void anythingElseIsMalformed() {
    assertThat(EndpointAuth.bearerToken("Bearer")).isEmpty();
    assertThat(EndpointAuth.bearerToken("Bearer ")).isEmpty();
    assertThat(EndpointAuth.bearerToken("Bearerabc")).isEmpty();
    assertThat(EndpointAuth.bearerToken("Bearer\tabc")).isEmpty();
    assertThat(EndpointAuth.bearerToken("Bearer abc def")).isEmpty();
    assertThat(EndpointAuth.bearerToken("Bearer abc,def")).isEmpty();
    assertThat(EndpointAuth.bearerToken("Bearer ab\"c")).isEmpty();
    assertThat(EndpointAuth.bearerToken("Bearer tök")).isEmpty();
    assertThat(EndpointAuth.bearerToken("Basic dXNlcjpwYXNz")).isEmpty();
  }

  @Test
  void aLongTokenIsReadWhole() {
    String token = "a".repeat(20_000);
    assertThat(EndpointAuth.bearerToken("Bearer " + token)).contains(token);
  }
}
