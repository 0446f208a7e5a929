package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.project.Environment;
import dev.svc.project.Project;
import dev.svc.project.ProjectLocator;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.RunningProject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc start --watch}: file changes are recompiled, swapped in, and announced. */
class HotReloadIT {
  private static final String PROJECT =
      """
      == .svc
      name: live
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/first/config.terse
      description: First tool.
      use: db
      statement: SELECT 1 AS value
      == app/resources/doc/config.terse
      name: doc
      uri: docs://doc
      file: doc.md
      == app/resources/doc/doc.md
      version 1
      == app/prompts/hello.terse
      messages:
        - role: user
          text: Hello
      """;

  @TempDir Path dir;

  @Test
  void changesAreServedAndAnnouncedAndABrokenChangeKeepsTheOldVersion() throws Exception {
    ProjectFixture.write(dir, PROJECT);
    Project project = ProjectLocator.locate(Optional.empty(), Optional.empty(), dir);
    StringWriter err = new StringWriter();
    CliContext context =
        new CliContext(
            dir, Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(err, true));
    try (Instance instance = RunningProject.start(dir, PROJECT)) {
      Reloader reloader = new Reloader(project, Environment.of(Map.of()), instance, context);
      try {
        exercise(instance, err);
      } finally {
        reloader.close();
      }
    }
  }

  private void exercise(Instance instance, StringWriter err) throws Exception {
    {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      client.request("resources/subscribe", "{\"uri\":\"docs://doc\"}");
      BlockingQueue<String> events = openStream(client);

      ProjectFixture.write(
          dir,
          """
          == app/tools/second/config.terse
          description: Second tool.
          use: db
          statement: SELECT 2 AS value
          == app/resources/doc/doc.md
          version 2
          """);
      assertThat(awaitEvent(events, "notifications/tools/list_changed")).isTrue();
      assertThat(awaitEvent(events, "notifications/resources/updated")).isTrue();
      assertThat(
              client
                  .request("tools/list", "{}")
                  .path("result")
                  .path("tools")
                  .valueStream()
                  .map(t -> t.path("name").asString())
                  .toList())
          .containsExactly("first", "second", "search");
      assertThat(
              client
                  .request("resources/read", "{\"uri\":\"docs://doc\"}")
                  .path("result")
                  .path("contents")
                  .get(0)
                  .path("text")
                  .asString())
          .startsWith("version 2");

      Files.writeString(
          dir.resolve("app/tools/second/config.terse"),
          "description: Broken.\nuse: nowhere\nstatement: SELECT 1\n");
      awaitText(err, "unknown-adapter");
      assertThat(client.call("second", "{}").path("result").path("structuredContent").toString())
          .isEqualTo("{\"result\":[{\"value\":2}]}");
    }
  }

  private static BlockingQueue<String> openStream(McpHttpClient client) {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    HttpRequest request =
        HttpRequest.newBuilder(client.uri())
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", client.session().orElseThrow())
            .GET()
            .build();
    Thread.ofVirtual()
        .start(() -> {
          try {
            HttpResponse<java.io.InputStream> response =
                HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(response.body()))) {
              String line;
              while ((line = reader.readLine()) != null) {
                lines.add(line);
              }
            }
          } catch (Exception e) {
            lines.add("closed: " + e);
          }
        });
    return lines;
  }

  private static boolean awaitEvent(BlockingQueue<String> lines, String method)
      throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (System.nanoTime() < end) {
      String line = lines.poll(200, TimeUnit.MILLISECONDS);
      if (line != null && line.contains(method)) {
        return true;
      }
    }
    return false;
  }

  private static void awaitText(StringWriter out, String text) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (System.nanoTime() < end && !out.toString().contains(text)) {
      Thread.sleep(100);
    }
    assertThat(out.toString()).contains(text);
  }
}
