package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.model.ConnectorKind;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RedisSettingsTest {
  private static RedisSettings parse(String connectionString, Map<String, String> options) {
    return RedisSettings.of(
        new ResolvedAdapter("cache", ConnectorKind.REDIS, connectionString, options, Path.of(".")));
  }

  @Test
  void userPasswordHostPortAndDatabaseNumber() {
    RedisSettings settings = parse("redis://app:s%40cret@redis.internal:6380/3", Map.of());

    assertThat(settings)
        .isEqualTo(
            new RedisSettings(
                "redis.internal", 6380, false, Optional.of("app"), Optional.of("s@cret"), 3, 8));
    assertThat(settings.toString()).doesNotContain("cret");
    assertThat(settings.location()).isEqualTo("redis.internal:6380/3");
  }

  @Test
  void thePasswordOnlyFormHasNoUser() {
    RedisSettings settings = parse("redis://:pw@h:6379/0", Map.of());

    assertThat(settings.user()).isEmpty();
    assertThat(settings.password()).contains("pw");
  }

  @Test
  void defaultsArePort6379DatabaseZeroAndNoCredentials() {
    RedisSettings settings = parse("redis://localhost", Map.of());

    assertThat(settings)
        .isEqualTo(
            new RedisSettings("localhost", 6379, false, Optional.empty(), Optional.empty(), 0, 8));
  }

  @Test
  void redissMeansTls() {
    assertThat(parse("rediss://h:6380/1", Map.of()).tls()).isTrue();
  }

  @Test
  void ipv6HostsLoseTheirBrackets() {
    RedisSettings settings = parse("redis://[::1]:7000/2", Map.of());

    assertThat(settings.host()).isEqualTo("::1");
    assertThat(settings.location()).isEqualTo("[::1]:7000/2");
  }

  @Test
  void poolSizeComesFromItsOption() {
    assertThat(parse("redis://h", Map.of("pool_size", "16")).poolSize()).isEqualTo(16);
    assertThatThrownBy(() -> parse("redis://h", Map.of("pool_size", "0")))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(
            "option pool_size of redis adapter `cache` must be a whole number from 1 to 200");
  }

  @Test
  void malformedStringsAreExplainedWithoutQuotingThem() {
    assertThatThrownBy(() -> parse("http://h", Map.of()))
        .hasMessage(
            "the connection string of redis adapter `cache` must start with redis:// or rediss://"
                + " (rediss:// for TLS)");
    assertThatThrownBy(() -> parse("redis://:pw@h/zero", Map.of()))
        .hasMessage(
            "the connection string of redis adapter `cache` has `/zero` where the database number"
                + " belongs; write /0, /1, … after the host");
    assertThatThrownBy(() -> parse("redis://:pw@h/0?pool_size=3", Map.of()))
        .hasMessageContaining("has query parameters (pool_size)")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pw"));
    assertThatThrownBy(() -> parse("redis://a,b/0", Map.of()))
        .hasMessage("the connection string of redis adapter `cache` must name exactly one host");
  }
}
