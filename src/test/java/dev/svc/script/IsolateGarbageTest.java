package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.log.Level;
import dev.svc.model.ScriptRef;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An isolate that has grown by garbage collects it all once it measures itself (at most once a
 * second): V8 alone would keep an old generation two or three times what survives.
 */
class IsolateGarbageTest {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final Pattern COLLECTED =
      Pattern.compile("isolate garbage collected.* kb_before=(\\d+) kb_after=(\\d+)");

  @TempDir Path dir;
  PooledScriptRunner runner;

  @AfterEach
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  @Test
  void anIsolateHoldingMegabytesOfGarbageCollectsThemAfterItsCall() throws Exception {
    var scripts =
        ProjectFixture.model(
                dir,
                """
                == .svc
                name: garbage
                == app/tools/t/config.terse
                description: A script that leaves garbage.
                == app/tools/t/handler.ts
                export default ({ inputs }) => {
                  const rows = Array.from({ length: inputs.n }, (_, i) => ({ id: i, name: "row " + i }));
                  return JSON.stringify(rows).length;
                };
                """)
            .scripts();
    runner =
        new PooledScriptRunner(
            new V8Engine(V8Engine.DEFAULT_HEAP_MB),
            scripts,
            new PooledScriptRunner.Settings(1, Duration.ofSeconds(120), false));
    String log;
    try (CapturedLog captured = CapturedLog.at(Level.DEBUG)) {
      call(1); // the isolate is made and measures itself: what it holds with nothing to collect
      Thread.sleep(1_100); // an isolate measures itself at most once a second
      // 150,000 rows live until the call ends (promoted to the old generation), garbage after it
      assertThat(call(150_000).asInt()).as("the call's own answer").isPositive();
      assertThat(call(1).asInt()).as("the isolate serves on").isPositive();
      log = captured.text();
    }

    Matcher collected = COLLECTED.matcher(log);
    assertThat(collected.find()).as("a full collection in the log: %s", log).isTrue();
    long before = Long.parseLong(collected.group(1));
    long after = Long.parseLong(collected.group(2));
    assertThat(before - after)
        .as("what the collection gave back, KB")
        .isGreaterThanOrEqualTo(IsolateGarbage.COLLECT_AFTER_BYTES / 1024);
  }

  @Test
  void aSmallIsolateCollectsAfter4MiB_aBigOneOnceItHoldsTwiceWhatSurvived() {
    IsolateGarbage small = new IsolateGarbage();
    assertThat(small.due(3_000_000)).as("the first measurement, its starting point").isFalse();
    assertThat(small.due(3_000_000 + IsolateGarbage.COLLECT_AFTER_BYTES - 1)).isFalse();
    assertThat(small.due(3_000_000 + IsolateGarbage.COLLECT_AFTER_BYTES)).isTrue();
    small.collected(800_000);
    assertThat(small.due(800_000 + IsolateGarbage.COLLECT_AFTER_BYTES)).isTrue();

    IsolateGarbage big = new IsolateGarbage();
    big.due(50_000_000);
    assertThat(big.due(99_999_999)).as("below twice what it held").isFalse();
    assertThat(big.due(100_000_000)).isTrue();
  }

  private JsonNode call(int n) {
    return runner.call(
        ref(), JSON.readTree("{\"inputs\":{\"n\":" + n + "}}"), "t", deadline(), who());
  }

  private static ScriptRef ref() {
    return new ScriptRef("app/tools/t/handler.ts", "default");
  }

  private static Deadline deadline() {
    return Deadline.after(Duration.ofSeconds(30));
  }

  private static Caller who() {
    return Caller.internal("test");
  }
}
