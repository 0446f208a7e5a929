package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.connector.ResultMemory;
import org.junit.jupiter.api.Test;

/**
 * What a script's answer that svc's JSON reader refuses becomes: the limit it passed, in plain
 * words, never Jackson's settings.
 */
class ScriptResultsTest {
  private static void read(String json) {
    try (ResultMemory.Account account = new ResultMemory(1L << 30, 1L << 30).open()) {
      ScriptResults.read(json, account);
    }
  }

  @Test
  void aKeyPastTheLimitIsNamedAsSuch() {
    // before: "Name length (52731) exceeds the maximum allowed (50000, from
    // `StreamReadConstraints.getMaxNameLength()`)": Jackson's setting, and not the key's length
    String key = "k".repeat(2_000_000);

    assertThatThrownBy(() -> read("{\"" + key + "\": 1}"))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessage("the script returned an object key longer than 50000 characters, svc's limit");
  }

  @Test
  void aValueTooDeepIsNamedAsSuch() {
    String deep = "[".repeat(600) + "]".repeat(600);

    assertThatThrownBy(() -> read(deep))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessage("the script returned a value nested deeper than 500 levels, svc's limit");
  }

  @Test
  void aLoneSurrogateInAKeyIsNamedAsSuch() {
    assertThatThrownBy(() -> read("{\"a\\ud800\": 1}"))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessage(
            "the script returned an object key holding a lone surrogate (half of a UTF-16 pair),"
                + " which is not text");
  }
}
