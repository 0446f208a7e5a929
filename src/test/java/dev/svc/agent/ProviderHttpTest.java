package dev.svc.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ProviderHttpTest {
  @Test
  void theHeadersSvcSentAreTakenOutOfAProvidersError() {
    Map<String, String> sent =
        Map.of("Authorization", "Bearer sk-TopSecret-OpenAI", "x-goog-api-key", "AIzaTopSecret");
    assertThat(
            ProviderHttp.withoutSecrets(
                ": Invalid API key provided: Bearer sk-TopSecret-OpenAI (AIzaTopSecret)", sent))
        .isEqualTo(": Invalid API key provided: Bearer [redacted] ([redacted])");
  }

  @Test
  void anErrorInAnAnswerIsOneShortLineWithoutTheKey() {
    Map<String, String> sent = Map.of("x-goog-api-key", "AIzaTopSecret");
    assertThat(
            ProviderHttp.errorMessage(
                dev.svc.json.Json.MAPPER.readTree(
                    "{\"message\":\"API key AIzaTopSecret\\nnot valid\"}"),
                sent))
        .isEqualTo("API key [redacted] not valid");
    assertThat(ProviderHttp.errorMessage(dev.svc.json.Json.NODES.stringNode("AIzaTopSecret"), sent))
        .isEqualTo("[redacted]");
    assertThat(
            ProviderHttp.errorMessage(
                dev.svc.json.Json.NODES.stringNode("y".repeat(10_000) + "AIzaTopSecret"), sent))
        .hasSize(301)
        .doesNotContain("AIza");
  }

  @Test
  void aHeaderValueWithAControlCharacterOrOneOutsideAsciiCannotBeSent() {
    assertThat(dev.svc.call.HeaderValues.safe("Bearer sk-abc\tdef")).isTrue();
    assertThat(dev.svc.call.HeaderValues.safe("Bearer “sk-abc”")).isFalse();
    assertThat(dev.svc.call.HeaderValues.safe("Bearer sk\u0001")).isFalse();
    assertThat(dev.svc.call.HeaderValues.safe("Bearer sk\r\nX-Evil: 1")).isFalse();
  }
}
