package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IntrospectionEndpointTest {
  @Test
  void anErrorCodeIsRepeatedButFreeTextIsNot() {
    assertThat(IntrospectionEndpoint.errorCode("{\"error\":\"invalid_client\"}"))
        .isEqualTo(", error `invalid_client`");
    // an issuer echoing the request: svc's own client credentials, base64 (svc:TopSecret-Client)
    assertThat(
            IntrospectionEndpoint.errorCode(
                "{\"error\":\"invalid_client Basic c3ZjOlRvcFNlY3JldC1DbGllbnQ=\"}"))
        .isEmpty();
    assertThat(IntrospectionEndpoint.errorCode("not json")).isEmpty();
  }
}
