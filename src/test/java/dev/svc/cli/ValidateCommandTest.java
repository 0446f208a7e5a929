package dev.svc.cli;

import static dev.svc.cli.CliRun.svc;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateCommandTest {
  @TempDir Path work;

  static final String VALID =
      """
      == .svc
      name: shop
      == app/tools/hello/config.terse
      description: Says hello.
      == app/tools/hello/handler.ts
      export default () => "hello";
      """;

  @Test
  void aValidProjectExitsZeroWithASummaryOnStdout() {
    ProjectFixture.write(work, VALID);

    CliRun run = svc(work, "validate");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .isEqualTo("valid: shop (1 tool, 0 adapters, 0 prompts, 0 resources, 0 agents)\n");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void warningsOfAValidProjectGoToStderrAndTheExitCodeStaysZero() {
    ProjectFixture.write(work, VALID + "== app/tools/draft/notes.md\nlater\n");

    CliRun run = svc(work, "validate");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("valid: shop");
    assertThat(run.err())
        .isEqualTo(
            """
            app/tools/draft: warning[missing-config]: directory `app/tools/draft` has no config.terse, so it is not a tool
              hint: add config.terse or move the directory out of app/tools
            0 errors, 1 warning
            """);
  }

  @Test
  void anInvalidProjectExitsOneWithDiagnosticsAndSummaryOnStderr() {
    ProjectFixture.write(
        work,
        """
        == .svc
        name: shop
        == app/tools/hello/config.terse
        description: Says hello.
        use: db
        == app/tools/bye/config.terse
        handler: bye.ts
        == app/tools/bye/bye.ts
        export default () => "bye";
        """);

    CliRun run = svc(work, "validate");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            """
            app/tools/bye/config.terse:1:1: error[missing-field]: `description` is missing from the tool
              hint: add `description:` (what the tool does; shown to models)
            app/tools/hello/config.terse:2:6: error[unknown-adapter]: no adapter is named `db`
              hint: define one in app/adapters/db.terse
            2 errors, 0 warnings
            """);
  }

  @Test
  void aDirectoryArgumentValidatesThatProject() {
    ProjectFixture.write(work.resolve("shop"), VALID);

    CliRun run = svc(work, "validate", "shop");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("valid: shop ");
  }

  @Test
  void aFileArgumentIsTheRootFileAndDiagnosticsNameIt() {
    ProjectFixture.write(
        work,
        """
        == svc.yaml
        name: Shop
        == app/tools/hello/config.terse
        description: Says hello.
        == app/tools/hello/handler.ts
        export default () => "hello";
        """);

    CliRun run = svc(work, "validate", "svc.yaml");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("svc.yaml:1:7: error[invalid-name]: `name` is `Shop`; it must match");
  }

  @Test
  void inlineRootConfigurationReplacesTheRootFile() {
    ProjectFixture.write(work, VALID);

    CliRun run = svc(work, "validate", "-s", "name: inline");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("valid: inline ");
  }

  @Test
  void aMissingPathExitsOneWithAClearError() {
    CliRun run = svc(work, "validate", "nope");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo("error: no such file or directory: " + work.resolve("nope") + "\n");
  }

  @Test
  void aFolderWithoutProjectSuggestsInit() {
    CliRun run = svc(work, "validate");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("no .svc file in " + work).contains("svc init");
  }

  @Test
  void dotEnvOfTheWorkingDirectoryCountsForTheApiKeyWarning() {
    ProjectFixture.write(
        work,
        """
        == .svc
        name: shop
        == .env
        SVC_API_KEY=from-dotenv
        == app/tools/hello/config.terse
        description: Says hello.
        auth: {plugin: api_key}
        == app/tools/hello/handler.ts
        export default () => "hello";
        """);

    CliRun run = svc(work, "validate");

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
  }

  @Test
  void mistakesInTestFilesAreReportedLikeAnyOther() {
    ProjectFixture.write(
        work,
        VALID
            + """
            == app/tools/hello/tests.terse
            cases:
              greets:
                inputs: {nam: x}
                expect: {json_path: {"greeting": x}}
            """);

    CliRun run = svc(work, "validate");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            """
            app/tools/hello/tests.terse:3:14: error[invalid-test-input]: tool `hello` has no input `nam`
              hint: the tool takes no inputs
            app/tools/hello/tests.terse:4:26: error[invalid-json-path]: `greeting` is not a JSON path: a JSON path starts with `$`
              hint: write `$`, then `.name`, `['name']` or `[index]` steps, e.g. `$[0].name`
            2 errors, 0 warnings
            """);
  }

  @Test
  void aTypeErrorInAScriptFailsValidateAtItsPositionAndNoTypeCheckSkipsIt() {
    ProjectFixture.write(
        work,
        """
        == .svc
        name: shop
        == app/tools/forecast/config.terse
        description: The forecast.
        inputs:
          days:
            type: int
        == app/tools/forecast/handler.ts
        export default ({ inputs }: Svc.HandlerPayload<"forecast">) =>
          ({ days: inputs.dayz });
        """);

    CliRun checked = svc(work, "validate");
    CliRun unchecked = svc(work, "validate", "--no-type-check");

    assertThat(checked.exitCode()).isEqualTo(1);
    assertThat(checked.out()).isEmpty();
    assertThat(checked.err())
        .isEqualTo(
            """
            app/tools/forecast/handler.ts:2:19: error[type-error]: TS2339: Property 'dayz' does not exist on type '{ days: number; }'.
            1 error, 0 warnings
            """);
    assertThat(unchecked.exitCode()).isZero();
    assertThat(unchecked.out()).startsWith("valid: shop (1 tool,");
    assertThat(work.resolve(".svc-types/svc.d.ts")).content().contains("\"forecast\": {");
  }

  @Test
  void aProjectWithoutScriptsGetsNoTypeDeclarations() {
    ProjectFixture.write(
        work,
        """
        == .svc
        name: shop
        == app/tools/hello/config.terse
        description: Says hello.
        use: db
        statement: SELECT 1
        == app/adapters/db.terse
        connector: sqlite
        connection_string: "file:./shop.db"
        """);

    CliRun run = svc(work, "validate");

    assertThat(run.exitCode()).isZero();
    assertThat(work.resolve(".svc-types")).doesNotExist();
  }

  /**
   * A NUL in a path (YAML writes it {@code "\0"}) threw the file system's InvalidPathException,
   * which ended the compilation with {@code error: Nul character not allowed: …}: no position, and
   * the other problems unreported.
   */
  @Test
  void pathsNoFileSystemCanHoldAreReportedAtTheirPositionsAllAtOnce() {
    ProjectFixture.write(
        work,
        """
        == .svc
        name: shop
        == app/adapters/db.terse
        connector: sqlite
        connection_string: "file:./shop.db"
        options:
          seed: "seed\\0.sql"
        == app/tools/hello/config.terse
        description: Says hello.
        handler: "hand\\0ler.ts"
        == app/resources/guide/config.terse
        uri: shop://guide
        file: "gu\\0ide.md"
        == app/prompts/look.terse
        messages:
          - role: user
            image: "ch\\0art.png"
        """);

    CliRun run = svc(work, "validate");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.err())
        .contains(
            "app/adapters/db.terse:4:9: error[invalid-path]: `seed\\u0000.sql` is not a file path:"
                + " nul character not allowed")
        .contains("app/prompts/look.terse:3:12: error[invalid-path]: `ch\\u0000art.png`")
        .contains("app/resources/guide/config.terse:2:7: error[invalid-path]: `gu\\u0000ide.md`")
        .contains("app/tools/hello/config.terse:2:10: error[invalid-path]: `hand\\u0000ler.ts`")
        .contains("hint: remove the character; file names cannot hold it")
        .endsWith("4 errors, 0 warnings\n");
  }

  @Test
  void pathsOfTheRootFileNoFileSystemCanHoldAreReportedAtTheirPositions() {
    ProjectFixture.write(
        work,
        VALID.replace(
            "name: shop\n",
            """
            name: shop
            root: "a\\0pp"
            build:
              out: "di\\0st"
            server:
              audit:
                enabled: true
                path: "au\\0dit.log"
            """));

    CliRun run = svc(work, "validate");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.err())
        .contains(".svc:2:7: error[invalid-path]: `a\\u0000pp` is not a file path")
        .contains(".svc:4:8: error[invalid-path]: `di\\u0000st` is not a file path")
        .contains(".svc:8:11: error[invalid-path]: `au\\u0000dit.log` is not a file path")
        .endsWith("3 errors, 0 warnings\n");
  }
}
