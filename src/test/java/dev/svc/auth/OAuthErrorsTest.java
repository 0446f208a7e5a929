package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OAuthErrorsTest {
  @Test
  void anErrorCodeIsRepeatedButFreeTextIsNot() {
    assertThat(OAuthErrors.code("{\"error\":\"invalid_client\"}"))
        .isEqualTo(", error `invalid_client`");
    // an issuer echoing the request: svc's own client credentials, base64 (svc:TopSecret-Client)
    assertThat(
            OAuthErrors.code("{\"error\":\"invalid_client Basic c3ZjOlRvcFNlY3JldC1DbGllbnQ=\"}"))
        .isEmpty();
    assertThat(OAuthErrors.code("not json")).isEmpty();
  }
}
