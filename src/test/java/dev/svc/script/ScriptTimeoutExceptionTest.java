package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The two timeouts of a script call, in the words the caller (or the model) reads. */
class ScriptTimeoutExceptionTest {

  @Test
  void aScriptThatRanPastItsDeadlineSaysHowLongItWasGiven() {
    ScriptTimeoutException ran = new ScriptTimeoutException(Duration.ofMillis(1200));

    assertThat(ran).hasMessage("the script ran longer than 1 s");
    assertThat(ran.messageFor(Duration.ofSeconds(30))).isEqualTo("the script ran longer than 30 s");
  }

  @Test
  void aScriptThatNeverStartedSaysWhy_withTheWholeCallsTimeout() {
    ScriptTimeoutException waited =
        ScriptTimeoutException.notStarted(
            Duration.ofMillis(250), "every script isolate was busy with other calls");

    assertThat(waited)
        .hasMessage(
            "the script could not start within 250 ms: every script isolate was busy with other"
                + " calls");
    assertThat(waited.messageFor(Duration.ofSeconds(30)))
        .isEqualTo(
            "the script could not start within 30 s: every script isolate was busy with other"
                + " calls");
  }
}
