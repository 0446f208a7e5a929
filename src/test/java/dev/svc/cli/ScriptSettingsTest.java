package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.runtime.StartupException;
import dev.svc.script.PooledScriptRunner;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The script sandbox's sizes come from the environment, checked at start. */
class ScriptSettingsTest {
  @TempDir Path dir;

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
    return Instance.scripts(model, Environment.of(environment));
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
}
