package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Caller;
import dev.svc.call.Headers;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PrincipalTest {
  @Test
  void aRequestWithoutCredentialsIsAnonymous() {
    assertThat(Principal.fromCredentials(Headers.NONE)).isEqualTo(Principal.ANONYMOUS);
    assertThat(Principal.fromCredentials(Headers.of("X-API-Key", "  ", "Authorization", "")))
        .isEqualTo(Principal.ANONYMOUS);
    assertThat(Principal.ANONYMOUS.isAnonymous()).isTrue();
    assertThat(Principal.ANONYMOUS.label()).isEqualTo("anonymous");
  }

  @Test
  void theSameCredentialsAreTheSamePrincipalAndOthersAreNot() {
    Principal key = Principal.fromCredentials(Headers.of("x-api-key", "k1"));
    assertThat(Principal.fromCredentials(Headers.of("X-API-Key", "k1"))).isEqualTo(key);
    assertThat(Principal.fromCredentials(Headers.of("X-API-Key", "k2"))).isNotEqualTo(key);
    assertThat(key.isAnonymous()).isFalse();

    Principal bearer = Principal.fromCredentials(Headers.of("Authorization", "Bearer k1"));
    assertThat(Principal.fromCredentials(Headers.of("authorization", "bearer  k1")))
        .as("the scheme is case-insensitive")
        .isEqualTo(bearer);
    assertThat(bearer).isNotEqualTo(key);
    assertThat(Principal.fromCredentials(Headers.of("Authorization", "Basic k1")))
        .isNotEqualTo(bearer);
    assertThat(Principal.fromCredentials(Headers.of("Authorization", "Bearer K1")))
        .as("the token is case-sensitive")
        .isNotEqualTo(bearer);

    Principal both =
        Principal.fromCredentials(Headers.of("Authorization", "Bearer k1", "X-API-Key", "k1"));
    assertThat(both).isNotEqualTo(bearer).isNotEqualTo(key);
  }

  @Test
  void theIdHoldsAHashNeverTheSecret() {
    Principal key = Principal.fromCredentials(Headers.of("X-API-Key", "s3cret-key"));
    assertThat(key.id()).startsWith("key:").doesNotContain("s3cret").hasSize(4 + 64);
    Principal bearer =
        Principal.fromCredentials(Headers.of("Authorization", "Bearer tok-s3cret-value"));
    assertThat(bearer.id()).startsWith("bearer:").doesNotContain("s3cret");
    assertThat(
            Principal.fromCredentials(Headers.of("Authorization", "Bearer t", "X-API-Key", "k"))
                .id())
        .startsWith("credentials:");
  }

  @Test
  void theLabelOfAKeyIsTheApiKeyPluginsIdentity() {
    Principal key = Principal.fromCredentials(Headers.of("X-API-Key", "s3cret"));
    AuthDecision decision =
        new ApiKeyPlugin(Optional.of("s3cret"))
            .authorize(new Caller("r", Headers.of("X-API-Key", "s3cret"), Optional.empty()));
    assertThat(decision).isEqualTo(new AuthDecision.Allow(key.label()));
  }

  @Test
  void aBlankIdIsRefused() {
    assertThatThrownBy(() -> new Principal(" ")).isInstanceOf(IllegalArgumentException.class);
  }
}
