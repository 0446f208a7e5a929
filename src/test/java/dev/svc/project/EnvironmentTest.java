package dev.svc.project;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where variables come from: process environment, then .env of the working dir, then project. */
class EnvironmentTest {
  @TempDir Path work;

  @Test
  void processEnvironmentWinsOverWorkingDirectoryWhichWinsOverProjectDirectory()
      throws IOException {
    Path project = Files.createDirectories(work.resolve("project"));
    Files.writeString(project.resolve(".env"), "A=project\nB=project\nC=project\n");
    Files.writeString(work.resolve(".env"), "A=cwd\nB=cwd\n");

    Environment environment = Environment.load(work, project, Map.of("A", "process"));

    assertThat(environment.get("A")).contains("process");
    assertThat(environment.get("B")).contains("cwd");
    assertThat(environment.get("C")).contains("project");
    assertThat(environment.get("D")).isEmpty();
    assertThat(environment.has("C")).isTrue();
  }

  @Test
  void theProjectDotEnvIsReadOnceWhenItIsTheWorkingDirectory() throws IOException {
    Files.writeString(work.resolve(".env"), "A=here\n");

    Environment environment = Environment.load(work, work.resolve("."), Map.of());

    assertThat(environment.get("A")).contains("here");
  }

  @Test
  void aDotEnvTooLargeIsRefusedUnreadWithItsSize() throws IOException {
    Path dotEnv = work.resolve(".env");
    // 3 GiB of nothing (a sparse file): more than a Java array can hold
    try (RandomAccessFile file = new RandomAccessFile(dotEnv.toFile(), "rw")) {
      file.setLength(3L << 30);
    }

    assertThatThrownBy(() -> Environment.load(work, work, Map.of()))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage(dotEnv + " holds 3072 MiB; a .env file may hold at most 4 MiB");
  }

  @Test
  void aDotEnvThatIsNotUtf8IsRefusedAtItsFirstBadByteWithoutItsValues() throws IOException {
    Path dotEnv = work.resolve(".env");
    Files.writeString(dotEnv, "A=1\nSECRET=s\u00e9same\nNAME=caf");
    Files.write(dotEnv, new byte[] {(byte) 0xE9, '\n'}, StandardOpenOption.APPEND);

    assertThatThrownBy(() -> Environment.load(work, work, Map.of()))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage(dotEnv + ":3:9: a .env file must be UTF-8 text");
  }

  @Test
  void missingDotEnvFilesAreFine() {
    Environment environment = Environment.load(work, work.resolve("elsewhere"), Map.of("A", "1"));

    assertThat(environment.get("A")).contains("1");
  }

  @Test
  void dotEnvUnderstandsCommentsExportAndQuotes() {
    Map<String, String> values =
        DotEnv.parse(
            """
            # a comment
            export TOKEN=abc
            PLAIN = spaced value   # trailing comment
            SINGLE='keep \\n and # as written'
            DOUBLE="line\\nnext \\"quoted\\""
            EMPTY=
            not a line
            =no-key
            """);

    assertThat(values)
        .containsExactly(
            Map.entry("TOKEN", "abc"),
            Map.entry("PLAIN", "spaced value"),
            Map.entry("SINGLE", "keep \\n and # as written"),
            Map.entry("DOUBLE", "line\nnext \"quoted\""),
            Map.entry("EMPTY", ""));
  }
}
