package dev.svc.cli;

import static dev.svc.cli.CliRun.svc;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InitCommandTest {
  @TempDir Path work;

  @Test
  void initWritesExactlyTheFilesTheSpecListsAndTheyValidate() {
    Path shop = work.resolve("shop");

    CliRun init = svc(shop, "init");

    assertThat(init.exitCode()).isZero();
    assertThat(init.err()).isEmpty();
    assertThat(files(shop).keySet())
        .containsExactlyInAnyOrder(
            ".svc",
            "app/tools/hello-world/config.terse",
            "app/tools/hello-world/handler.ts",
            "app/tools/hello-world/tests.terse",
            ".agents/skills/svc-docs/SKILL.md",
            ".agents/skills/svc-agents/SKILL.md",
            ".gitignore",
            "tsconfig.json",
            ".svc-types/svc.d.ts",
            ".svc-types/sandbox.d.ts");
    assertThat(files(shop).values()).allSatisfy(content -> assertThat(content).isNotBlank());
    CliRun validate = svc(shop, "validate");
    assertThat(validate.err()).isEmpty();
    assertThat(validate.exitCode()).isZero();
    assertThat(validate.out()).startsWith("valid: shop (1 tool,");
  }

  @Test
  void theStarterHandlerIsTypedByTheGeneratedDeclarations() {
    assertThat(svc(work, "init").exitCode()).isZero();

    assertThat(files(work).get("app/tools/hello-world/handler.ts"))
        .contains("Svc.HandlerPayload<\"hello-world\">");
    assertThat(files(work).get(".svc-types/svc.d.ts"))
        .contains(
            """
                "hello-world": {
                  inputs: {
                    /** Who to greet. */
                    name: string;
                  };
            """);
    assertThat(files(work).get("tsconfig.json")).contains("\".svc-types/*.d.ts\"");
  }

  @Test
  void theSkillsAreAgentSkillsWithNameAndDescription() {
    assertThat(svc(work, "init").exitCode()).isZero();

    for (String skill : new String[] {"svc-docs", "svc-agents"}) {
      String text = files(work).get(".agents/skills/" + skill + "/SKILL.md");
      assertThat(text).startsWith("---\nname: " + skill + "\ndescription: ");
      assertThat(text.split("\n---\n", 2)[1]).isNotBlank();
    }
  }

  @Test
  void theGitignoreKeepsSecretsAndDependenciesOutOfGit() {
    CliRun init = svc(work, "init");

    assertThat(init.out()).contains("  created .gitignore");
    assertThat(files(work).get(".gitignore").lines().filter(l -> !l.startsWith("#")))
        .containsExactly(".env", "node_modules/", "dist/", ".svc-types/");
  }

  @Test
  void anExistingGitignoreIsKeptAndDoesNotStopInit() throws IOException {
    Files.writeString(work.resolve(".gitignore"), "target/\n");

    CliRun init = svc(work, "init");

    assertThat(init.exitCode()).isZero();
    assertThat(init.out())
        .contains("kept the existing .gitignore (make sure it lists .env, .svc-types/)")
        .doesNotContain("created .gitignore");
    assertThat(files(work)).containsEntry(".gitignore", "target/\n").containsKey(".svc");
  }

  @Test
  void aSecondInitReportsTheExistingFilesWritesNothingAndFails() {
    assertThat(svc(work, "init").exitCode()).isZero();
    Map<String, String> before = files(work);

    CliRun again = svc(work, "init");

    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.out()).isEmpty();
    assertThat(again.err())
        .contains("never overwrites")
        .contains(work.resolve(".svc").toString())
        .contains(work.resolve("app/tools/hello-world/handler.ts").toString())
        .contains("nothing was written");
    assertThat(files(work)).isEqualTo(before);
  }

  /** A link to nothing was free to init, which wrote through it, outside the folder. */
  @Test
  void aLinkToNothingCountsAsAnExistingFileAndNothingIsWrittenThroughIt() throws IOException {
    Path project = Files.createDirectories(work.resolve("project"));
    Path elsewhere = work.resolve("elsewhere.txt");
    Files.createSymbolicLink(project.resolve(".svc"), elsewhere);
    Files.createSymbolicLink(project.resolve(".gitignore"), work.resolve("elsewhere-ignore"));

    CliRun init = svc(work, "init", "project");

    assertThat(init.exitCode()).isEqualTo(1);
    assertThat(init.err()).contains(project.resolve(".svc").toString());
    assertThat(elsewhere).doesNotExist();

    Files.delete(project.resolve(".svc"));
    CliRun second = svc(work, "init", "project");

    assertThat(second.exitCode()).as(second.err()).isZero();
    assertThat(second.out()).contains("kept the existing .gitignore");
    assertThat(work.resolve("elsewhere-ignore")).doesNotExist();
  }

  @Test
  void oneExistingFileIsEnoughToWriteNothing() throws IOException {
    Files.writeString(work.resolve(".svc"), "name: mine\n");

    CliRun init = svc(work, "init");

    assertThat(init.exitCode()).isEqualTo(1);
    assertThat(init.err()).contains(work.resolve(".svc").toString()).doesNotContain("handler.ts");
    assertThat(files(work)).containsOnlyKeys(".svc").containsEntry(".svc", "name: mine\n");
  }

  @Test
  void initIntoAFolderDerivesAValidServiceNameFromIt() {
    CliRun init = svc(work, "init", "My Shop");

    assertThat(init.exitCode()).isZero();
    assertThat(init.out())
        .contains("Project `my-shop` is ready")
        .contains("cd 'My Shop' && svc validate");
    assertThat(files(work.resolve("My Shop")).get(".svc")).contains("\nname: my-shop\n");
    CliRun validate = svc(work, "validate", "My Shop");
    assertThat(validate.exitCode()).isZero();
    assertThat(validate.out()).startsWith("valid: my-shop ");
  }

  @Test
  void serviceNamesAreMadeValidFromAnyFolderName() {
    assertThat(InitCommand.serviceName(Path.of("shop"))).isEqualTo("shop");
    assertThat(InitCommand.serviceName(Path.of("Order_Service"))).isEqualTo("order_service");
    assertThat(InitCommand.serviceName(Path.of("2024 Reports!"))).isEqualTo("reports");
    assertThat(InitCommand.serviceName(Path.of("---"))).isEqualTo("my-service");
    assertThat(InitCommand.serviceName(null)).isEqualTo("my-service");
  }

  @Test
  void initOnAFileFails() throws IOException {
    Files.writeString(work.resolve("taken"), "x");

    CliRun init = svc(work, "init", "taken");

    assertThat(init.exitCode()).isEqualTo(1);
    assertThat(init.err()).contains("exists and is not a directory");
  }

  /** Every regular file under {@code root} by relative path, with its content. */
  private static Map<String, String> files(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      Map<String, String> files = new TreeMap<>();
      for (Path file : walk.filter(Files::isRegularFile).toList()) {
        files.put(root.relativize(file).toString().replace('\\', '/'), Files.readString(file));
      }
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
