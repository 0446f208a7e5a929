package dev.svc.cli;

import static dev.svc.cli.CliRun.svc;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code svc test} with an environment value the runtime refuses: each suite reports the problem
 * (variable and what it must be) instead of the run ending with {@code 1 problem(s) prevent
 * serving} and nothing else.
 */
class TestCommandEnvironmentTest {
  @TempDir Path dir;

  @Test
  void anInvalidScriptSettingIsReportedPerSuiteWithItsName() {
    ProjectFixture.write(
        dir,
        """
        == .svc
        name: shop
        == app/adapters/shop.terse
        connector: sqlite
        connection_string: ":memory:"
        == app/tools/one/config.terse
        description: One.
        use: shop
        statement: SELECT 1 AS x
        == app/tools/one/tests.terse
        cases:
          gives one row:
            expect: {row_count: 1}
        """);

    CliRun run =
        svc(
            dir,
            Map.of("SVC_SCRIPT_ISOLATES", "lots"),
            "test",
            dir.toString(),
            "--format",
            "junit");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.err())
        .contains("ERROR  tool one  app/tools/one/tests.terse  (did not run)")
        .contains("SVC_SCRIPT_ISOLATES must be a whole number of at least 1");
    assertThat(run.out()).contains("<testcase name=\"(suite setup)\"");
  }
}
