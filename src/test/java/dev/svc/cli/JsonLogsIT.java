package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.svc.testing.ProjectFixture;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code --log-format json} makes every line svc writes a JSON object, on standard output and error
 * alike: the banner, compile warnings and errors, svc's own log, and what libraries (SQLite, V8,
 * OpenTelemetry, Jetty) write, in a real process.
 */
class JsonLogsIT {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  @Test
  void aProjectWithScriptsAndAWarningWritesOnlyJsonLines() throws Exception {
    Path project =
        ProjectFixture.write(
            dir.resolve("project"),
            """
            == .svc
            name: jsonlogs
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/one/config.terse
            description: Reads {{ env.SHOP }} (not substituted here, so a warning).
            use: db
            statement: SELECT 1 AS one
            == app/tools/quick/config.terse
            description: Answers from a script.
            == app/tools/quick/handler.ts
            export default () => ({ quick: true });
            """);
    SvcProcess svc =
        SvcProcess.starting(dir, project, "--log-format", "json", "--log-file", "--log-level", "4");
    try (svc) {
      HttpClient client = HttpClient.newHttpClient();
      for (String path : List.of("/ready", "/heartbeat", "/nothing")) {
        client.send(
            HttpRequest.newBuilder(URI.create(svc.baseUrl() + path)).build(),
            HttpResponse.BodyHandlers.discarding());
      }
      assertThat(svc.stop()).isZero();
      List<JsonNode> out = jsonLines("stdout", svc.out());
      List<JsonNode> err = jsonLines("stderr", svc.err());
      assertThat(out)
          .anySatisfy(
              line -> assertThat(line.path("msg").asString()).startsWith("serving jsonlogs ("));
      assertThat(out)
          .anySatisfy(line -> assertThat(line.path("msg").asString()).startsWith("logging to "));
      assertThat(err)
          .anySatisfy(line -> {
            assertThat(line.path("level").asString()).isEqualTo("warn");
            assertThat(line.path("code").asString()).isEqualTo("env-not-substituted");
            assertThat(line.path("file").asString()).endsWith("config.terse");
            assertThat(line.path("line").asInt()).isPositive();
          });
      assertThat(err)
          .anySatisfy(line -> assertThat(line.path("msg").asString()).isEqualTo("stopped"));
    }
  }

  @Test
  void aProjectWithErrorsExitsNonZeroWithItsDiagnosticsAsJsonLines() throws Exception {
    Path project =
        ProjectFixture.write(
            dir.resolve("broken"),
            """
            == .svc
            name: broken
            == app/tools/one/config.terse
            description: Uses an adapter that does not exist.
            use: nowhere
            statement: SELECT 1
            """);
    Path run = dir.resolve("run");
    Files.createDirectories(run);
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-jar",
                Path.of("target/svc.jar").toAbsolutePath().toString(),
                "start",
                project.toString(),
                "-p",
                "0",
                "--log-format",
                "json")
            .directory(dir.toFile())
            .redirectOutput(run.resolve("out").toFile())
            .redirectError(run.resolve("err").toFile())
            .start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("svc start did not end");
    }
    assertThat(process.exitValue()).isEqualTo(ExitCodes.FAILED);
    jsonLines("stdout", Files.readString(run.resolve("out")));
    List<JsonNode> err = jsonLines("stderr", Files.readString(run.resolve("err")));
    assertThat(err)
        .anySatisfy(line -> {
          assertThat(line.path("level").asString()).isEqualTo("error");
          assertThat(line.path("tag").asString()).isEqualTo("compile");
          assertThat(line.path("file").asString()).endsWith("config.terse");
          assertThat(line.path("msg").asString()).contains("nowhere");
        });
    assertThat(err)
        .anySatisfy(line -> assertThat(line.path("msg").asString()).startsWith("1 error"));
  }

  /** Every line of {@code text} parsed as a JSON object; fails naming the first that is not. */
  private static List<JsonNode> jsonLines(String stream, String text) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      if (line.isEmpty()) {
        continue;
      }
      JsonNode parsed;
      try {
        parsed = JSON.readTree(line);
      } catch (RuntimeException e) {
        throw new AssertionError(stream + " has a line that is not JSON: " + line + "\n" + text);
      }
      assertThat(parsed.isObject()).as("%s line %s", stream, line).isTrue();
      assertThat(parsed.has("time") && parsed.has("level") && parsed.has("msg"))
          .as("%s line %s has time, level and msg", stream, line)
          .isTrue();
      lines.add(parsed);
    }
    return lines;
  }
}
