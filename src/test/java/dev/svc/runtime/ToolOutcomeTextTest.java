package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import org.junit.jupiter.api.Test;

class ToolOutcomeTextTest {
  @Test
  void aSuccessReadsAsItsPayloadsJson() {
    assertThat(ToolOutcomeText.of(new ToolOutcome.Success(Json.MAPPER.readTree("[{\"a\": 1}]"))))
        .isEqualTo("[{\"a\":1}]");
    assertThat(ToolOutcomeText.of(new ToolOutcome.Success(Json.NODES.stringNode("hi"))))
        .isEqualTo("\"hi\"");
  }

  @Test
  void aFailureReadsAsItsMessage() {
    assertThat(ToolOutcomeText.of(new ToolOutcome.Failure("no such table: t")))
        .isEqualTo("no such table: t");
  }
}
