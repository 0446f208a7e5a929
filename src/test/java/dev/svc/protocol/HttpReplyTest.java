package dev.svc.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpReplyTest {
  @Test
  void aPlainErrorIsOneJsonStringUnderError() {
    HttpReply.Body reply = HttpReply.error(404, Map.of("Allow", "GET"), "no agent is named `a\"b`");
    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.headers()).containsEntry("Allow", "GET");
    assertThat(reply.contentType()).isEqualTo("application/json");
    assertThat(new String(reply.body(), StandardCharsets.UTF_8))
        .isEqualTo("{\"error\":\"no agent is named `a\\\"b`\"}");
  }
}
