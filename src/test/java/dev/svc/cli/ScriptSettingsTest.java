package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.runtime.StartupException;
import dev.svc.script.PooledScriptRunner;
import dev.svc.script.ScriptMemory;
import dev.svc.script.V8Engine;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The script sandbox's sizes come from the environment, checked at start. */
class ScriptSettingsTest {
  @TempDir Path dir;

  /** Starting with {@code environment} stops with {@code message} as its one problem's text. */
  void assertStartRefused(Map<String, String> environment, String message) {
    assertThatThrownBy(() -> runner(environment))
        .isInstanceOfSatisfying(
            StartupException.class,
            e -> assertThat(e.problems().getFirst().message()).isEqualTo(message));
  }

  PooledScriptRunner runner(Map<String, String> environment) {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: sizes
            == app/tools/hello/config.terse
            description: Says hello.
            == app/tools/hello/handler.ts
            export default () => "hello";
            """);
    return ScriptSandbox.runner(model, Environment.of(environment));
  }

  @Test
  void withoutVariablesTheDefaultsApply() {
    try (PooledScriptRunner runner = runner(Map.of())) {
      assertThat(runner.settings().callerSlots())
          .isEqualTo(PooledScriptRunner.Settings.defaultCallerSlots());
      assertThat(runner.settings().maxIsolates())
          .isEqualTo(PooledScriptRunner.Settings.defaults().maxIsolates());
    }
  }

  @Test
  void callerSlotsAndIsolatesAreSetByTheirVariables() {
    try (PooledScriptRunner runner =
        runner(Map.of("SVC_SCRIPT_CALLER_SLOTS", "0", "SVC_SCRIPT_ISOLATES", "3"))) {
      assertThat(runner.settings().callerSlots()).isZero();
      assertThat(runner.settings().maxIsolates()).isEqualTo(3);
    }
  }

  @Test
  void idleIsolatesAreKeptAMinute_orAsLongAsSvcScriptIdleSecondsSays() {
    try (PooledScriptRunner runner = runner(Map.of())) {
      assertThat(runner.settings().idleTimeout()).isEqualTo(Duration.ofSeconds(60));
    }
    try (PooledScriptRunner runner = runner(Map.of("SVC_SCRIPT_IDLE_SECONDS", "3600"))) {
      assertThat(runner.settings().idleTimeout()).isEqualTo(Duration.ofHours(1));
    }
    assertStartRefused(
        Map.of("SVC_SCRIPT_IDLE_SECONDS", "0"),
        "SVC_SCRIPT_IDLE_SECONDS must be a whole number of at least 1");
  }

  @Test
  void aNegativeOrNonNumericValueStopsTheStartWithInvalidEnv() {
    assertThatThrownBy(() -> runner(Map.of("SVC_SCRIPT_CALLER_SLOTS", "-1")))
        .isInstanceOfSatisfying(
            StartupException.class,
            e -> {
              assertThat(e.problems()).hasSize(1);
              assertThat(e.problems().getFirst().code()).isEqualTo("invalid-env");
              assertThat(e.problems().getFirst().message())
                  .isEqualTo("SVC_SCRIPT_CALLER_SLOTS must be a whole number of at least 0");
            });
    assertThatThrownBy(() -> runner(Map.of("SVC_SCRIPT_ISOLATES", "many")))
        .isInstanceOf(StartupException.class);
  }

  @Test
  void theMemoryCeilingDefaultsFromTheMachine_andIsSetBySvcScriptMemoryMb() {
    ScriptMemory defaults = ScriptSandbox.memory(Environment.of(Map.of()));
    assertThat(defaults.heapMb()).isEqualTo(V8Engine.DEFAULT_HEAP_MB);
    assertThat(defaults.limitMb()).isEqualTo(ScriptMemory.defaultLimitMb(V8Engine.DEFAULT_HEAP_MB));
    assertThat(defaults.maxIsolates()).isPositive();

    ScriptMemory set =
        ScriptSandbox.memory(
            Environment.of(Map.of("SVC_SCRIPT_MEMORY_MB", "1000", "SVC_SCRIPT_HEAP_MB", "64")));
    assertThat(set.limitMb()).isEqualTo(1000);
    assertThat(set.maxIsolates()).isEqualTo(15);
    assertThat(set.limitBytes()).isEqualTo(1000L * 1024 * 1024);
  }

  @Test
  void oneToolsShareIsSvcScriptToolCalls_atMostHalfOfTheMemoryCeiling() {
    try (PooledScriptRunner runner =
        runner(Map.of("SVC_SCRIPT_TOOL_CALLS", "3", "SVC_SCRIPT_MEMORY_MB", "1024"))) {
      assertThat(runner.toolShare()).isEqualTo(3);
    }
    try (PooledScriptRunner runner =
        runner(Map.of("SVC_SCRIPT_TOOL_CALLS", "8", "SVC_SCRIPT_MEMORY_MB", "512"))) {
      assertThat(runner.toolShare()).isEqualTo(2);
    }
    try (PooledScriptRunner runner =
        runner(Map.of("SVC_SCRIPT_TOOL_CALLS", "8", "SVC_SCRIPT_MEMORY_MB", "128"))) {
      assertThat(runner.toolShare()).isEqualTo(1);
    }
  }

  @Test
  void aToolsShareIsItsOwnSettingNotTheIsolateCount() {
    int cores = Runtime.getRuntime().availableProcessors();
    PooledScriptRunner.Settings defaults = PooledScriptRunner.Settings.defaults();
    assertThat(defaults.maxIsolates())
        .as("one isolate per core and per caller slot")
        .isEqualTo(Math.max(2, cores + PooledScriptRunner.Settings.defaultCallerSlots()));
    assertThat(defaults.toolShare()).isEqualTo(Math.max(8, 4 * cores));
    try (PooledScriptRunner runner =
        runner(Map.of("SVC_SCRIPT_ISOLATES", "2", "SVC_SCRIPT_MEMORY_MB", "4096"))) {
      assertThat(runner.toolShare())
          .as("SVC_SCRIPT_ISOLATES does not bound a tool's share")
          .isEqualTo(Math.max(8, 4 * cores));
    }
  }

  @Test
  void aToolShareThatIsNotAPositiveNumberStopsTheStartWithInvalidEnv() {
    assertStartRefused(
        Map.of("SVC_SCRIPT_TOOL_CALLS", "0"),
        "SVC_SCRIPT_TOOL_CALLS must be a whole number of at least 1");
  }

  @Test
  void aMemoryCeilingBelowOneHeapOrNotANumberStopsTheStartWithInvalidEnv() {
    assertThatThrownBy(() -> runner(Map.of("SVC_SCRIPT_MEMORY_MB", "100")))
        .isInstanceOfSatisfying(
            StartupException.class,
            e -> {
              assertThat(e.problems()).hasSize(1);
              assertThat(e.problems().getFirst().code()).isEqualTo("invalid-env");
              assertThat(e.problems().getFirst().message())
                  .isEqualTo("SVC_SCRIPT_MEMORY_MB must be a whole number of at least 128");
            });
    assertThatThrownBy(
            () -> runner(Map.of("SVC_SCRIPT_MEMORY_MB", "32", "SVC_SCRIPT_HEAP_MB", "64")))
        .isInstanceOfSatisfying(
            StartupException.class,
            e ->
                assertThat(e.problems().getFirst().message())
                    .isEqualTo("SVC_SCRIPT_MEMORY_MB must be a whole number of at least 64"));
    for (String bad : List.of("lots", "1.5", "-1", "99999999999")) {
      assertThatThrownBy(() -> runner(Map.of("SVC_SCRIPT_MEMORY_MB", bad)))
          .as(bad)
          .isInstanceOf(StartupException.class);
    }
  }
}
