package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The {@code Origin} rule for svc's own page (the dev console): a same-origin request passes under
 * a name listed in {@code allowed_hosts}, and under no other name.
 */
class OriginPolicyTest {
  @Test
  void aPageOfSvcItselfPassesUnderAListedName() {
    OriginPolicy policy = new OriginPolicy(false, List.of("svc.test"), List.of());
    assertThat(
            policy.originAllowed(Optional.of("http://svc.test:8080"), Optional.of("svc.test:8080")))
        .isTrue();
    assertThat(policy.originAllowed(Optional.of("https://svc.test"), Optional.of("svc.test")))
        .isTrue();
  }

  @Test
  void anotherOriginOrAnotherPortIsRefused() {
    OriginPolicy policy = new OriginPolicy(false, List.of("svc.test"), List.of());
    assertThat(
            policy.originAllowed(
                Optional.of("http://evil.test:8080"), Optional.of("svc.test:8080")))
        .isFalse();
    assertThat(
            policy.originAllowed(Optional.of("http://svc.test:9090"), Optional.of("svc.test:8080")))
        .isFalse();
  }

  @Test
  void withoutAListEvenASameOriginRequestOfAnUnlistedNameIsRefused() {
    // a public server without allowed_hosts accepts any Host: a rebound name's page must not pass
    OriginPolicy policy = new OriginPolicy(false, List.of(), List.of());
    assertThat(
            policy.originAllowed(
                Optional.of("http://rebound.test:8080"), Optional.of("rebound.test:8080")))
        .isFalse();
    assertThat(
            policy.originAllowed(
                Optional.of("http://127.0.0.1:8080"), Optional.of("rebound.test:8080")))
        .as("loopback origins pass, as before")
        .isTrue();
  }

  @Test
  void aMalformedOriginIsRefused() {
    OriginPolicy policy = new OriginPolicy(true, List.of("svc.test"), List.of());
    assertThat(policy.originAllowed(Optional.of("http://svc test"), Optional.of("svc.test")))
        .isFalse();
    assertThat(policy.originAllowed(Optional.of("null"), Optional.of("svc.test"))).isFalse();
  }
}
