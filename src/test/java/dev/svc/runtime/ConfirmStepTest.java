package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import org.junit.jupiter.api.Test;

class ConfirmStepTest {
  @Test
  void theQuestionHasTheInputsValuesAndNothingForOneLeftOut() {
    assertThat(
            ConfirmStep.render(
                "Delete order {{ inputs.id }} of {{inputs.who}}{{ inputs.note }}?",
                Json.MAPPER.readTree("{\"id\":42,\"who\":\"ada\"}")))
        .isEqualTo("Delete order 42 of ada?");
  }

  @Test
  void aLongValueIsShownByItsBeginningAndItsLength() {
    String body = "b".repeat(48_213);
    assertThat(
            ConfirmStep.render(
                "Send {{ inputs.body }} to {{ inputs.body }}?",
                Json.NODES.objectNode().put("body", body)))
        .isEqualTo(
            "Send "
                + "b".repeat(200)
                + "… (48213 characters) to "
                + "b".repeat(200)
                + "… (48213 characters)?");
  }
}
