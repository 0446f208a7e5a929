package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.ProjectFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files the project serves to clients and embeds in its artifact (a resource's {@code file} or
 * {@code file_template}, a prompt's {@code image}) stay inside the project and are never its {@code
 * .env}.
 */
class ServedFilePathsTest {
  @TempDir Path dir;
  Path project;

  @BeforeEach
  void outsideTheProject() throws Exception {
    project = dir.resolve("project");
    Files.writeString(dir.resolve("secret.txt"), "not the project's");
  }

  @Test
  void aResourceFileOutsideTheProjectIsRejected() {
    assertThat(
            ProjectFixture.report(
                project,
                """
                == app/resources/readme/config.terse
                uri: docs://readme
                file: ../../../../secret.txt
                """))
        .isEqualTo(
            """
            app/resources/readme/config.terse:2:7: error[file-outside-project]: `../../../../secret.txt` is outside the project directory: svc serves this file to clients and embeds it in what `svc build` makes
              hint: copy the file into the project and name it by a path inside it
            1 error, 0 warnings
            """);
  }

  @Test
  void anAbsolutePathOutsideTheProjectIsRejected() {
    assertThat(
            ProjectFixture.report(
                project,
                """
                == app/prompts/look.terse
                messages:
                  - role: user
                    image: /etc/passwd
                    mime_type: image/png
                """))
        .startsWith(
            "app/prompts/look.terse:3:12: error[file-outside-project]: `/etc/passwd` is outside"
                + " the project directory");
  }

  @Test
  void aLinkTheAuthorMadeInsideTheProjectIsFollowed_unlessItLeadsToAnEnvFile() throws Exception {
    // links inside the project are the author's own, followed as linked folders of definitions
    // are; the written path decides what is outside, and .env is refused by either name
    ProjectFixture.write(
        project,
        ProjectFixture.DEFAULT_ROOT
            + """
            == app/prompts/look.terse
            messages:
              - role: user
                image: chart.png
            == app/prompts/peek.terse
            messages:
              - role: user
                image: notes.png
            """);
    Files.writeString(dir.resolve("chart.png"), "png");
    Files.writeString(dir.resolve(".env"), "API_KEY=s3cret");
    Files.createSymbolicLink(project.resolve("app/prompts/chart.png"), dir.resolve("chart.png"));
    Files.createSymbolicLink(project.resolve("app/prompts/notes.png"), dir.resolve(".env"));
    assertThat(ProjectFixture.report(project, ""))
        .doesNotContain("look.terse")
        .contains("app/prompts/peek.terse:3:12: error[secret-file]: `notes.png` is a .env file");
  }

  @Test
  void theProjectsEnvFileIsRejected_underAnyOfItsNames() {
    assertThat(
            ProjectFixture.report(
                project,
                """
                == .env
                API_KEY=s3cret
                == .env.production
                API_KEY=s3cret
                == app/resources/env/config.terse
                uri: docs://env
                file: ../../../.env
                == app/resources/prod/config.terse
                uri_template: docs://prod/{x}
                file_template: ../../../.env.production
                """))
        .isEqualTo(
            """
            app/resources/env/config.terse:2:7: error[secret-file]: `../../../.env` is a .env file, which holds the project's secrets: svc would serve it to clients and embed it in what `svc build` makes
              hint: put the content in a file of its own; keep secrets in .env only
            app/resources/prod/config.terse:2:16: error[secret-file]: `../../../.env.production` is a .env file, which holds the project's secrets: svc would serve it to clients and embed it in what `svc build` makes
              hint: put the content in a file of its own; keep secrets in .env only
            2 errors, 0 warnings
            """);
  }

  @Test
  void filesInsideTheProjectAreServed() {
    assertThat(
            ProjectFixture.report(
                project,
                """
                == docs/README.md
                # Read me
                == .env.example
                API_KEY=
                == app/resources/readme/config.terse
                uri: docs://readme
                file: ../../../docs/README.md
                """))
        .isEmpty();
  }
}
