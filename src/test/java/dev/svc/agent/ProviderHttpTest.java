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
  void aHeaderValueWithAControlCharacterOrOneOutsideAsciiCannotBeSent() {
    assertThat(dev.svc.call.HeaderValues.safe("Bearer sk-abc\tdef")).isTrue();
    assertThat(dev.svc.call.HeaderValues.safe("Bearer “sk-abc”")).isFalse();
    assertThat(dev.svc.call.HeaderValues.safe("Bearer sk\u0001")).isFalse();
    assertThat(dev.svc.call.HeaderValues.safe("Bearer sk\r\nX-Evil: 1")).isFalse();
  }
}
