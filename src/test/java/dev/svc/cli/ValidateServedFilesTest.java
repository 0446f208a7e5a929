package dev.svc.cli;

import static dev.svc.cli.CliRun.svc;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc validate} refuses a project that would serve its .env or a file outside it. */
class ValidateServedFilesTest {
  @TempDir Path work;

  @Test
  void validateReportsAResourceThatServesTheEnvFile_withItsPosition() throws Exception {
    Files.writeString(work.resolve(".svc"), "name: shop\n");
    Files.writeString(work.resolve(".env"), "API_KEY=s3cret\n");
    Path resource = Files.createDirectories(work.resolve("app/resources/env"));
    Files.writeString(resource.resolve("config.terse"), "uri: docs://env\nfile: ../../../.env\n");

    CliRun run = svc(work, "validate");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out() + run.err())
        .contains(
            "app/resources/env/config.terse:2:7: error[secret-file]: `../../../.env` is a .env")
        .doesNotContain("s3cret");
  }
}
