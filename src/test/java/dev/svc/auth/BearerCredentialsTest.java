package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How {@code server.auth} reads {@code Authorization: Bearer …} (RFC 6750 §2.1). */
class BearerCredentialsTest {
  private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln-_~+/";

  @Test
  void theSchemeIsCaseInsensitiveAndSpacesAroundTheTokenAreAllowed() {
    assertThat(BearerCredentials.token("Bearer " + TOKEN)).contains(TOKEN);
    assertThat(BearerCredentials.token("bearer " + TOKEN)).contains(TOKEN);
    assertThat(BearerCredentials.token("BEARER   " + TOKEN + "  ")).contains(TOKEN);
  }

  @Test
  void paddingIsPartOfTheTokenButOnlyAtItsEnd() {
    assertThat(BearerCredentials.token("Bearer abc==")).contains("abc==");
    assertThat(BearerCredentials.token("Bearer a=bc")).isEmpty();
    assertThat(BearerCredentials.token("Bearer ==")).isEmpty();
  }

  @Test
  void anythingElseIsMalformed() {
    assertThat(BearerCredentials.token("Bearer")).isEmpty();
    assertThat(BearerCredentials.token("Bearer ")).isEmpty();
    assertThat(BearerCredentials.token("Bearerabc")).isEmpty();
    assertThat(BearerCredentials.token("Bearer\tabc")).isEmpty();
    assertThat(BearerCredentials.token("Bearer abc def")).isEmpty();
    assertThat(BearerCredentials.token("Bearer abc,def")).isEmpty();
    assertThat(BearerCredentials.token("Bearer ab\"c")).isEmpty();
    assertThat(BearerCredentials.token("Bearer tök")).isEmpty();
    assertThat(BearerCredentials.token("Basic dXNlcjpwYXNz")).isEmpty();
  }

  @Test
  void theSchemeIsTheWordBeforeTheFirstSpace() {
    // "Bearerfoo abc" is the scheme Bearerfoo (401 without an error code), not a malformed Bearer
    assertThat(BearerCredentials.of(dev.svc.call.Headers.of("authorization", "Bearerfoo abc")))
        .isInstanceOf(BearerCredentials.OtherScheme.class);
    assertThat(BearerCredentials.of(dev.svc.call.Headers.of("authorization", "Bearer")))
        .isInstanceOf(BearerCredentials.Malformed.class);
    assertThat(BearerCredentials.of(dev.svc.call.Headers.of("authorization", "bearer " + TOKEN)))
        .isInstanceOf(BearerCredentials.Token.class);
  }

  @Test
  void aLongTokenIsReadWhole() {
    String token = "a".repeat(20_000);
    assertThat(BearerCredentials.token("Bearer " + token)).contains(token);
  }
}
