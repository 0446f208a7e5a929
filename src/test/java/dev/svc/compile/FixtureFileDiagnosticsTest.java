package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.ProjectFixture;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fixture files that must not run: a path out of the project, the project's {@code .env}, a file
 * too large to read whole. Each is a diagnostic at the fixture's position, not a surprise at run
 * time (a secret in a database's error message, an {@code OutOfMemoryError} ending the run).
 */
class FixtureFileDiagnosticsTest {
  @TempDir Path dir;
  @TempDir Path outside;

  @Test
  void aFixtureOutsideTheProjectIsReported_aLinkInsideItIsTheAuthorsOwnAndFollowed()
      throws IOException {
    Files.writeString(outside.resolve("shared.sql"), "CREATE TABLE t (x INT);");
    Files.writeString(outside.resolve(".env"), "TOKEN=sk-live-123");
    ProjectFixture.write(
        dir,
        TestDiagnosticsTest.PROJECT + tests("[link.sql, secrets.sql, ../../../../outside.sql]"));
    Files.createSymbolicLink(
        dir.resolve("app/tools/get_product/link.sql"), outside.resolve("shared.sql"));
    Files.createSymbolicLink(
        dir.resolve("app/tools/get_product/secrets.sql"), outside.resolve(".env"));

    List<String> diagnostics = diagnostics();

    assertThat(diagnostics).noneMatch(line -> line.contains("`link.sql`"));
    assertThat(diagnostics)
        .anyMatch(line -> line.contains("fixture `secrets.sql` is a .env file"))
        .anyMatch(line ->
            line.contains(
                "error[invalid-fixture]: fixture `../../../../outside.sql` is outside the"
                    + " project"));
  }

  @Test
  void theProjectsEnvFileIsNoFixture() {
    ProjectFixture.write(
        dir,
        TestDiagnosticsTest.PROJECT + "== .env\nTOKEN=sk-live-123\n" + tests("[../../../.env]"));

    List<String> diagnostics = diagnostics();

    assertThat(diagnostics).hasSize(1);
    assertThat(diagnostics.getFirst())
        .startsWith(
            "app/tools/get_product/tests.terse:1:12: error[invalid-fixture]: fixture"
                + " `../../../.env` is a .env file");
  }

  @Test
  void aFixtureTooLargeToReadWholeIsReportedInsteadOfEndingTheRun() throws IOException {
    ProjectFixture.write(dir, TestDiagnosticsTest.PROJECT + tests("[big.sql]"));
    try (RandomAccessFile big =
        new RandomAccessFile(dir.resolve("app/tools/get_product/big.sql").toFile(), "rw")) {
      big.setLength(64L * 1024 * 1024 + 1); // sparse: no disk used
    }

    assertThat(diagnostics())
        .containsExactly(
            "app/tools/get_product/tests.terse:1:12: error[invalid-fixture]: fixture `big.sql`"
                + " has 67108865 bytes; a fixture is read whole, at most 67108864 bytes");
  }

  private List<String> diagnostics() {
    return ProjectFixture.compile(dir).diagnostics().stream().map(ProjectFixture::line).toList();
  }

  private static String tests(String fixtures) {
    return """
    == app/tools/get_product/tests.terse
    fixtures: %s
    cases:
      finds one:
        inputs: {id: 3}
        expect: {row_count: 0}
    """
        .formatted(fixtures);
  }
}
