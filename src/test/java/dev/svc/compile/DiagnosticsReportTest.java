package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.Model;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How problems are reported: all at once, sorted by file, line and column, then summarised. */
class DiagnosticsReportTest {
  @TempDir Path dir;

  @Test
  void problemsInSeveralFilesAreAllReportedAtOnceSortedByFileThenLine() {
    String report =
        ProjectFixture.report(
            dir,
            """
            == .svc
            name: shop
            verison: "1"
            server:
              log_level: 9
            == app/tools/b/config.terse
            description: B.
            use: nope
            statement: SELECT 1
            == app/tools/a/config.terse
            handler: missing.ts
            == app/adapters/db.terse
            connector: oracle
            connection_string: x
            """);

    assertThat(report)
        .isEqualTo(
            """
            .svc:2:1: error[unknown-key]: unknown key `verison` in the root configuration
              hint: did you mean `version`?
            .svc:4:14: error[invalid-log-level]: `log_level` is 9; it must be between 1 and 4
            app/adapters/db.terse:1:12: error[unknown-connector]: `connector` is `oracle`, which is not supported
              hint: use one of: postgres, mysql, sqlite, mongodb, redis
            app/tools/a/config.terse:1:1: error[missing-field]: `description` is missing from the tool
              hint: add `description:` (what the tool does; shown to models)
            app/tools/a/config.terse:1:10: error[missing-script]: the handler script `missing.ts` does not exist
              hint: paths start at the tool directory app/tools/a/
            app/tools/b/config.terse:2:6: error[unknown-adapter]: no adapter is named `nope`
              hint: define one in app/adapters/nope.terse
            6 errors, 0 warnings
            """);
  }

  @Test
  void problemsOnOneLineAreSortedByColumn() {
    List<String> lines =
        ProjectFixture.diagnostics(
            dir,
            """
            == .svc
            name: shop
            == app/tools/t/config.terse
            description: T.
            inputs: {b: {type: flot}, a: {type: integr}}
            == app/tools/t/handler.ts
            export default () => 1;
            """);

    assertThat(lines)
        .containsExactly(
            "app/tools/t/config.terse:2:20: error[invalid-input-type]: `type` is `flot`, which is"
                + " not supported",
            "app/tools/t/config.terse:2:37: error[invalid-input-type]: `type` is `integr`, which is"
                + " not supported");
  }

  @Test
  void everyCompilationListsItsDiagnosticsInSortedOrder() {
    List<Diagnostic> diagnostics =
        ProjectFixture.compile(
                ProjectFixture.write(
                    dir,
                    """
                    == .svc
                    name: Shop
                    tools: {cache: {ttl: 0}}
                    == app/prompts/z.terse
                    messages: [{role: robot, text: Hi}]
                    == app/prompts/a.terse
                    messages: []
                    == app/agents/x/config.terse
                    instruction: ""
                    model: {provider: nope, model: m}
                    """))
            .diagnostics();

    assertThat(diagnostics).hasSize(6).isSorted();
    assertThat(diagnostics).extracting(d -> d.origin().file()).first().isEqualTo(".svc");
  }

  @Test
  void aValidProjectWithWarningsCompilesAndKeepsTheWarnings() {
    Compilation compilation =
        ProjectFixture.compile(
            ProjectFixture.write(
                dir,
                """
                == .svc
                name: shop
                colour: blue
                == app/tools/t/config.terse
                description: T.
                auth: {plugin: api_key}
                == app/tools/t/handler.ts
                export default () => 1;
                """));

    assertThat(compilation).isInstanceOf(Compilation.Success.class);
    Model model = ((Compilation.Success) compilation).model();
    assertThat(model.tools()).extracting(t -> t.name()).containsExactly("t");
    assertThat(compilation.diagnostics())
        .extracting(Diagnostic::code)
        .containsExactly("unknown-key", "missing-api-key");
    assertThat(Diagnostics.summary(compilation.diagnostics())).isEqualTo("0 errors, 2 warnings");
  }

  @Test
  void anInvalidProjectFailsWithEveryErrorAndNoModel() {
    Compilation compilation =
        ProjectFixture.compile(
            ProjectFixture.write(
                dir,
                """
                == .svc
                name: shop
                == app/tools/a/config.terse
                description: A.
                == app/tools/b/config.terse
                description: B.
                """));

    assertThat(compilation).isInstanceOf(Compilation.Failure.class);
    assertThat(compilation.diagnostics())
        .extracting(ProjectFixture::line)
        .containsExactly(
            "app/tools/a/config.terse:1:1: error[missing-backend]: the tool has neither `use` nor"
                + " `handler`",
            "app/tools/b/config.terse:1:1: error[missing-backend]: the tool has neither `use` nor"
                + " `handler`");
    assertThat(Diagnostics.summary(compilation.diagnostics())).isEqualTo("2 errors, 0 warnings");
  }
}
