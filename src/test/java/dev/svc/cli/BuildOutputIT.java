package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.ProjectFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@code svc build} writes: {@code build.out} and {@code build.out_dir} of the root file
 * (relative to the project), {@code -o} (relative to the working directory), and cleaning with
 * {@code build.clean_dir} or {@code --clean-dir}.
 */
class BuildOutputIT {
  private static final String FILES =
      """
      == app/prompts/hello.terse
      messages:
        - role: user
          text: Hello
      """;

  @TempDir Path dir;

  private Path project(String root) {
    return ProjectFixture.write(dir.resolve("project"), "== .svc\n" + root + FILES);
  }

  private CliRun build(String... args) {
    String[] all = new String[args.length + 2];
    all[0] = "build";
    System.arraycopy(args, 0, all, 1, args.length);
    all[all.length - 1] = "--no-aot";
    CliRun run = CliRun.svc(dir, all);
    assertThat(run.exitCode()).as(run.err()).isZero();
    return run;
  }

  @Test
  void outWinsOverOutDirAndIsRelativeToTheProject() {
    Path project =
        project(
            """
            name: shipped
            build:
              out: ship
              out_dir: other
            """);

    CliRun run = build(project.toString());

    assertThat(project.resolve("ship/model.bin")).isRegularFile();
    assertThat(project.resolve("ship/svc")).isExecutable();
    assertThat(project.resolve("other")).doesNotExist();
    assertThat(run.out()).contains("into " + project.resolve("ship"));
  }

  @Test
  void outDirAloneIsTheOutputDirectory() {
    Path project =
        project(
            """
            name: shipped
            build:
              out_dir: ../artifacts/shipped
            """);

    build(project.toString());

    assertThat(dir.resolve("artifacts/shipped/model.bin")).isRegularFile();
    assertThat(project.resolve("dist")).doesNotExist();
  }

  @Test
  void dashOWinsOverTheRootFileAndIsRelativeToTheWorkingDirectory() {
    Path project =
        project(
            """
            name: shipped
            build:
              out: ship
              out_dir: other
            """);

    build(project.toString(), "-o", "elsewhere");

    assertThat(dir.resolve("elsewhere/model.bin")).isRegularFile();
    assertThat(project.resolve("ship")).doesNotExist();
    assertThat(project.resolve("other")).doesNotExist();
  }

  @Test
  void withoutAnyOutputSettingTheArtifactGoesToDistBesideTheRootFile() {
    Path project = project("name: shipped\n");

    build(project.toString());

    assertThat(project.resolve("dist/model.bin")).isRegularFile();
  }

  @Test
  void cleanDirInTheRootFileOrTheFlagRemovesWhatTheOutputDirectoryHeld() throws Exception {
    Path project =
        project(
            """
            name: shipped
            build:
              out: ship
            """);
    Path stale = project.resolve("ship/stale.txt");
    Files.createDirectories(stale.getParent());
    Files.writeString(stale, "from an older build");

    build(project.toString());
    assertThat(stale).as("kept without cleaning").exists();

    build(project.toString(), "--clean-dir");
    assertThat(stale).as("removed by --clean-dir").doesNotExist();
    assertThat(project.resolve("ship/model.bin")).isRegularFile();

    Files.writeString(stale, "from an older build");
    project(
        """
        name: shipped
        build:
          out: ship
          clean_dir: true
        """);
    CliRun run = build(project.toString());
    assertThat(stale).as("removed by build.clean_dir").doesNotExist();
    assertThat(project.resolve("ship/model.bin")).isRegularFile();
    assertThat(run.err()).contains("svc: removing " + project.resolve("ship"));
  }

  @Test
  void anOutputDirectoryHoldingDefinitionsIsRefusedAndLeftAsItIs() {
    Path project =
        project(
            """
            name: shipped
            build:
              out: app
              clean_dir: true
            """);

    CliRun run = CliRun.svc(dir, "build", project.toString(), "--no-aot");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.err())
        .contains(
            "error: the output directory "
                + project.resolve("app")
                + " holds the project's app/prompts/hello.terse; choose an output directory"
                + " (build.out or -o) outside the definitions");
    assertThat(project.resolve("app/prompts/hello.terse")).as("not removed").isRegularFile();
    assertThat(project.resolve("app/model.bin")).doesNotExist();

    CliRun flag = CliRun.svc(dir, "build", project.toString(), "-o", "project/app/prompts");
    assertThat(flag.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(project.resolve("app/prompts/hello.terse")).isRegularFile();
  }

  /**
   * A password written in a connection string is in {@code model.bin}, as it must be for the
   * artifact to connect: the build warns of it and no longer says the build holds no secrets. One
   * from {@code .env} stays out, and then the build does say so.
   */
  @Test
  void aBuildHoldingAPasswordWrittenInTheFilesSaysSo() throws Exception {
    String tool =
        """
        == app/tools/count/config.terse
        description: Counts.
        use: db
        statement: SELECT 1
        """;
    Path written =
        ProjectFixture.write(
            dir.resolve("written"),
            """
            == .svc
            name: written
            == app/adapters/db.terse
            connector: postgres
            connection_string: "postgresql://app:Sup3rS3cretPw@db.internal:5432/shop"
            """
                + tool);
    Path fromEnv =
        ProjectFixture.write(
            dir.resolve("from-env"),
            """
            == .svc
            name: from-env
            == .env
            DB_PASSWORD=Sup3rS3cretPw
            == app/adapters/db.terse
            connector: postgres
            connection_string: "postgresql://app:{{ env.DB_PASSWORD }}@db.internal:5432/shop"
            """
                + tool);

    CliRun literal = build(written.toString());
    CliRun placeholder = build(fromEnv.toString());

    assertThat(Files.readString(written.resolve("dist/model.bin"), StandardCharsets.ISO_8859_1))
        .contains("Sup3rS3cretPw");
    assertThat(literal.err())
        .contains("app/adapters/db.terse:2:20: warning[literal-secret]: ")
        .doesNotContain("Sup3rS3cretPw");
    assertThat(literal.out())
        .doesNotContain("holds no secrets")
        .contains(
            "the build holds the secrets written in the project's files: see the literal-secret"
                + " warnings above)");
    assertThat(Files.readString(fromEnv.resolve("dist/model.bin"), StandardCharsets.ISO_8859_1))
        .doesNotContain("Sup3rS3cretPw");
    assertThat(placeholder.err()).doesNotContain("literal-secret");
    assertThat(placeholder.out()).contains("the build holds no secrets)");
  }

  @Test
  void anInlineRootConfigurationBuildsTheProjectInTheGivenDirectory() {
    Path project = ProjectFixture.write(dir.resolve("project"), FILES); // no .svc file

    CliRun run = build("-s", "{name: inline-built, build: {out: ship}}", project.toString());

    assertThat(project.resolve("ship/model.bin")).isRegularFile();
    assertThat(run.out()).contains("svc: built inline-built (");
  }

  /**
   * A seed is copied into the artifact at its path from the project directory; one outside the
   * project was left out without a word, and the artifact failed at {@code svc serve} (or ran
   * whatever file sat at that path beside it).
   */
  @Test
  void aSeedScriptOutsideTheProjectIsRefusedAtItsPositionBeforeAnythingIsWritten()
      throws Exception {
    Path project =
        ProjectFixture.write(
            dir.resolve("project"),
            """
            == .svc
            name: seeded
            == app/adapters/shop.terse
            connector: sqlite
            connection_string: "file:./shop.db"
            options:
              seed: ../shared/seed.sql
            == app/tools/count/config.terse
            description: Counts.
            use: shop
            statement: SELECT count(*) AS n FROM items
            """);
    Files.createDirectories(dir.resolve("shared"));
    Files.writeString(dir.resolve("shared/seed.sql"), "CREATE TABLE items (id INTEGER);");

    CliRun run = CliRun.svc(dir, "build", project.toString(), "-o", "out", "--no-aot");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.err())
        .contains(
            "app/adapters/shop.terse:4:9: error[seed-outside-project]: the seed script"
                + " `../shared/seed.sql` is outside the project directory, so `svc build` cannot"
                + " copy it into the artifact")
        .contains("hint: move the script into the project");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  /**
   * A build that cannot write said only {@code cannot write <file>}: not why (a full disk, a
   * permission, a folder on the way that is a file).
   */
  @Test
  void aBuildThatCannotWriteSaysWhy() throws Exception {
    Path project = project("name: shipped\n");
    Files.writeString(dir.resolve("taken"), "a file, not a folder");

    CliRun file = CliRun.svc(dir, "build", project.toString(), "-o", "taken", "--no-aot");
    CliRun under = CliRun.svc(dir, "build", project.toString(), "-o", "taken/out", "--no-aot");

    assertThat(file.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(file.err())
        .contains(
            "error: cannot write "
                + dir.resolve("taken/model.bin")
                + ": "
                + dir.resolve("taken")
                + " exists and is not a folder");
    assertThat(under.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(under.err())
        .contains(
            "error: cannot write " + dir.resolve("taken/out/model.bin") + ": Not a directory");
  }

  /**
   * The output folder is compared with the project once links are followed: {@code -o} naming a
   * link to the project, or to its {@code app/}, wrote the build among the sources.
   */
  @Test
  void anOutputDirectoryThatIsALinkToTheProjectOrItsDefinitionsIsRefused() throws Exception {
    Path project = project("name: shipped\n");
    Files.createSymbolicLink(dir.resolve("alias"), project);
    Files.createSymbolicLink(dir.resolve("app-alias"), project.resolve("app"));

    CliRun whole = CliRun.svc(dir, "build", project.toString(), "-o", "alias", "--no-aot");
    CliRun app = CliRun.svc(dir, "build", project.toString(), "-o", "app-alias", "--no-aot");

    assertThat(whole.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(whole.err()).contains("would hold the project itself");
    assertThat(app.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(app.err()).contains("holds the project's app/prompts/hello.terse");
    assertThat(project.resolve("model.bin")).doesNotExist();
    assertThat(project.resolve("app/model.bin")).doesNotExist();
  }

  /**
   * Cleaning removed the whole output folder, whatever it held: {@code -o ~/work --clean-dir}, or a
   * root file with {@code out: /home/me/Documents} and {@code clean_dir: true}, deleted that
   * folder.
   */
  @Test
  void cleaningRemovesOnlyAnEarlierBuildNotAFolderOfOtherFiles() throws Exception {
    Path project = project("name: shipped\n");
    Path documents = dir.resolve("documents");
    Files.createDirectories(documents.resolve("letters"));
    Files.writeString(documents.resolve("letters/thesis.txt"), "years of work");

    CliRun run =
        CliRun.svc(dir, "build", project.toString(), "-o", "documents", "--clean-dir", "--no-aot");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.err())
        .contains(
            "error: the output directory "
                + documents
                + " holds files but no earlier build (no model.bin); --clean-dir and"
                + " build.clean_dir remove only an earlier build");
    assertThat(documents.resolve("letters/thesis.txt")).hasContent("years of work");
    assertThat(documents.resolve("model.bin")).doesNotExist();
  }
}
