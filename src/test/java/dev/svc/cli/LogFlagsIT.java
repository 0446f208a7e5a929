package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The logging flags of {@code svc start} end to end, in a real process: {@code --log-file} (the tee
 * file and the line naming it), {@code --log-tags} and {@code SVC_LOG_TAGS}, {@code --log-format}.
 */
class LogFlagsIT {
  private static final String PROJECT =
      """
      == .svc
      name: logged
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/one/config.terse
      description: One.
      use: db
      statement: SELECT 1 AS one
      """;
  private static final Pattern LOGGING_TO =
      Pattern.compile("logging to (/tmp/\\.svc/logs/svc-[0-9a-f]{8}\\.log)(\\n|\")");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  @Test
  void logFileTeesEveryJsonLineAndTheTagsFlagWinsOverTheVariable() throws Exception {
    Path project = ProjectFixture.write(dir.resolve("project"), PROJECT);
    SvcProcess svc =
        SvcProcess.serving(
            dir,
            dir.resolve("run"),
            Map.of("SVC_LOG_TAGS", "http"),
            "start",
            project.toString(),
            "-p",
            "0",
            "--verbose",
            "--log-file",
            "--log-format",
            "json",
            "--log-tags",
            "runtime,svc");
    Path file;
    try (svc) {
      Matcher logging = LOGGING_TO.matcher(svc.out());
      assertThat(logging.find()).as(svc.out()).isTrue();
      file = Path.of(logging.group(1));
      call(svc);
      assertThat(svc.stop()).isZero();
    }
    try {
      List<String> console = svc.err().lines().toList();
      assertThat(console).isNotEmpty();
      List<String> tags =
          console.stream().map(l -> JSON.readTree(l).path("tag").asString()).toList();
      // --verbose would show http and tool lines; --log-tags keeps these two (SVC_LOG_TAGS=http
      // is overridden by the flag)
      assertThat(tags)
          .contains("runtime", "svc")
          .allMatch(t -> t.equals("runtime") || t.equals("svc"));
      assertThat(console).anyMatch(l -> l.contains("\"msg\":\"adapter ready\""));
      assertThat(console).anyMatch(l -> l.contains("\"msg\":\"stopped\""));
      assertThat(Files.readAllLines(file)).isEqualTo(console);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  @Test
  void textFormatAndTheTagsVariableExcludeTags() throws Exception {
    Path project = ProjectFixture.write(dir.resolve("project"), PROJECT);
    SvcProcess svc =
        SvcProcess.serving(
            dir,
            dir.resolve("run"),
            Map.of("SVC_LOG_TAGS", "-http,-svc"),
            "start",
            project.toString(),
            "-p",
            "0",
            "--verbose",
            "--log-format",
            "text");
    try (svc) {
      call(svc);
      assertThat(svc.stop()).isZero();
    }
    String console = svc.err();
    assertThat(console)
        .containsPattern("(?m)^\\S+Z INFO  \\[runtime\\] adapter ready adapter=db connector=sqlite")
        .containsPattern("(?m)^\\S+Z DEBUG \\[tool\\] tool call request_id=[0-9a-f]+ tool=one")
        .doesNotContain("[http]", "[svc]")
        .doesNotContainPattern("(?m)^\\{");
    assertThat(svc.out()).doesNotContain("logging to");
  }

  @Test
  void serveTakesTheSameFlags() throws Exception {
    Path project = ProjectFixture.write(dir.resolve("project"), PROJECT);
    Path artifact = dir.resolve("dist");
    CliRun build =
        CliRun.svc(dir, "build", project.toString(), "-o", artifact.toString(), "--no-aot");
    assertThat(build.exitCode()).as(build.err()).isZero();
    SvcProcess svc =
        SvcProcess.serving(
            artifact,
            dir.resolve("run"),
            Map.of(),
            "serve",
            "-p",
            "0",
            "--log-file",
            "--log-format=json",
            "--log-tags=tool",
            "--log-level",
            "4");
    Path file;
    try (svc) {
      Matcher logging = LOGGING_TO.matcher(svc.out());
      assertThat(logging.find()).as(svc.out()).isTrue();
      file = Path.of(logging.group(1));
      call(svc);
      assertThat(svc.stop()).isZero();
    }
    try {
      List<String> console = svc.err().lines().toList();
      assertThat(console).hasSize(1);
      JsonNode line = JSON.readTree(console.get(0));
      assertThat(line.path("tag").asString()).isEqualTo("tool");
      assertThat(line.path("level").asString()).isEqualTo("debug");
      assertThat(line.path("tool").asString()).isEqualTo("one");
      assertThat(line.path("request_id").asString()).isNotEmpty();
      assertThat(Files.readAllLines(file)).isEqualTo(console);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private static void call(SvcProcess svc) {
    McpHttpClient client = new McpHttpClient(svc.baseUrl());
    client.initialize();
    assertThat(client.call("one", "{}").path("result").path("structuredContent").toString())
        .isEqualTo("{\"rows\":[{\"one\":1}]}");
  }
}
