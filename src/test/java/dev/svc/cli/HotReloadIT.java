package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.log.Level;
import dev.svc.project.Environment;
import dev.svc.project.Project;
import dev.svc.project.ProjectLocator;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
  private CapturedLog log;

  @BeforeEach
  void captureLog() {
    log = CapturedLog.at(Level.INFO);
  }

  @AfterEach
  void restoreLogging() {
    log.close();
  }

  /** A project served with {@code --watch}: the instance, its reloader, what it printed. */
  private record Watched(Instance instance, Reloader reloader, StringWriter err)
      implements AutoCloseable {
    @Override
    public void close() {
      reloader.close();
      instance.close();
    }
  }

  private Watched watch(String files) {
    ProjectFixture.write(dir, files);
    Project project = ProjectLocator.locate(Optional.empty(), Optional.empty(), dir);
    StringWriter err = new StringWriter();
    CliContext context =
        new CliContext(
            dir, Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(err, true));
    Instance instance = RunningProject.start(dir, files);
    return new Watched(
        instance, new Reloader(project, Environment.of(Map.of()), instance, context), err);
  }

  @Test
  void changesAreServedAndAnnouncedAndABrokenChangeKeepsTheOldVersion() throws Exception {
    try (Watched watched = watch(PROJECT)) {
      exercise(watched.instance(), watched.err());
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
      awaitText(err::toString, "unknown-adapter");
      assertThat(client.call("second", "{}").path("result").path("structuredContent").toString())
          .isEqualTo("{\"rows\":[{\"value\":2}]}");
    }
  }

  @Test
  void aStatelessListenStreamHearsOnlyTheChangesItAskedForEachTaggedWithItsId() throws Exception {
    try (Watched watched = watch(PROJECT)) {
      StatelessMcpClient client = new StatelessMcpClient(watched.instance().baseUrl());
      BlockingQueue<String> tools =
          client.listen("{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"docs://doc\"]}");
      BlockingQueue<String> prompts = client.listen("{\"promptsListChanged\":true}");
      assertThat(awaitEvent(tools, "notifications/subscriptions/acknowledged")).isTrue();
      assertThat(awaitEvent(prompts, "notifications/subscriptions/acknowledged")).isTrue();

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

      List<String> heard = new ArrayList<>();
      assertThat(awaitEvent(tools, "notifications/tools/list_changed", heard)).isTrue();
      assertThat(awaitEvent(tools, "notifications/resources/updated", heard)).isTrue();
      assertThat(heard)
          .filteredOn(l -> l.startsWith("data:") && l.contains("notifications/"))
          .allMatch(l -> l.contains("\"io.modelcontextprotocol/subscriptionId\":"));

      Files.writeString(
          dir.resolve("app/prompts/hello.terse"),
          "messages:\n  - role: user\n    text: Hello again\n");
      List<String> heardByPrompts = new ArrayList<>();
      assertThat(awaitEvent(prompts, "notifications/prompts/list_changed", heardByPrompts))
          .isTrue();
      heardByPrompts.addAll(drain(prompts));
      assertThat(heardByPrompts)
          .noneMatch(l -> l.contains("tools/list_changed") || l.contains("resources/updated"));
      assertThat(drain(tools)).noneMatch(l -> l.contains("prompts/list_changed"));
    }
  }

  @Test
  void promptAndResourceChangesAreAnnouncedAsTheirListChanges() throws Exception {
    try (Watched watched = watch(PROJECT)) {
      McpHttpClient client = new McpHttpClient(watched.instance().baseUrl());
      client.initialize();
      BlockingQueue<String> events = openStream(client);

      Files.writeString(
          dir.resolve("app/prompts/hello.terse"),
          "messages:\n  - role: user\n    text: Hello again\n");
      assertThat(awaitEvent(events, "notifications/prompts/list_changed")).isTrue();
      assertThat(drain(events))
          .noneMatch(l -> l.contains("list_changed") || l.contains("resources/updated"));
      assertThat(
              client
                  .request("prompts/get", "{\"name\":\"hello\"}")
                  .path("result")
                  .path("messages")
                  .get(0)
                  .path("content")
                  .path("text")
                  .asString())
          .isEqualTo("Hello again");

      ProjectFixture.write(
          dir,
          """
          == app/resources/extra/config.terse
          name: extra
          uri: docs://extra
          text: Extra
          """);
      assertThat(awaitEvent(events, "notifications/resources/list_changed")).isTrue();
      assertThat(drain(events))
          .noneMatch(l -> l.contains("list_changed") || l.contains("resources/updated"));
      assertThat(
              client
                  .request("resources/list", "{}")
                  .path("result")
                  .path("resources")
                  .valueStream()
                  .map(r -> r.path("uri").asString())
                  .toList())
          .containsExactly("docs://doc", "docs://extra");
    }
  }

  @Test
  void aRemovedFileIsReloadedAndTheReloadTimeIsLogged() throws Exception {
    try (Watched watched = watch(PROJECT)) {
      McpHttpClient client = new McpHttpClient(watched.instance().baseUrl());
      client.initialize();
      BlockingQueue<String> events = openStream(client);

      Files.delete(dir.resolve("app/prompts/hello.terse"));

      assertThat(awaitEvent(events, "notifications/prompts/list_changed")).isTrue();
      assertThat(client.request("prompts/list", "{}").path("result").path("prompts").size())
          .isZero();
      awaitText(log::text, "[reload] reloaded");
      assertThat(log.text())
          .contains("[reload] files changed, recompiling files=app/prompts/hello.terse")
          .containsPattern(
              "\\[reload\\] reloaded ms=\\d+ changed_tools=\"\" prompts_changed=true"
                  + " resources_changed=false");
    }
  }

  @Test
  void aToolDirectoryRenamedToAHiddenNameIsNoLongerServed() throws Exception {
    try (Watched watched = watch(PROJECT)) {
      McpHttpClient client = new McpHttpClient(watched.instance().baseUrl());
      client.initialize();
      BlockingQueue<String> events = openStream(client);

      // the directory's own deletion is the only event: its files are not deleted one by one
      Files.move(dir.resolve("app/tools/first"), dir.resolve("app/tools/.first"));

      assertThat(awaitEvent(events, "notifications/tools/list_changed")).isTrue();
      assertThat(client.request("tools/list", "{}").path("result").path("tools").toString())
          .doesNotContain("\"first\"");
      awaitText(log::text, "[reload] reloaded");
      assertThat(log.text()).contains("[reload] files changed, recompiling files=app/tools/first");
    }
  }

  @Test
  void aChangedHandlerOrAModuleItImportsIsServedAfterTheWatcherSeesIt() throws Exception {
    String files =
        """
        == .svc
        name: scripted
        == app/tools/greet/config.terse
        description: Greets.
        == app/tools/greet/handler.ts
        import { word } from "./word";
        export default () => ({ greeting: `${word} 1` });
        == app/tools/greet/word.ts
        export const word = "hello";
        """;
    try (Watched watched = watch(files)) {
      McpHttpClient client = new McpHttpClient(watched.instance().baseUrl());
      client.initialize();
      assertThat(greeting(client)).isEqualTo("hello 1");

      Files.writeString(
          dir.resolve("app/tools/greet/handler.ts"),
          "import { word } from \"./word\";\n"
              + "export default () => ({ greeting: `${word} 2` });\n");
      awaitGreeting(client, "hello 2");

      Files.writeString(dir.resolve("app/tools/greet/word.ts"), "export const word = \"hi\";\n");
      awaitGreeting(client, "hi 2");
    }
  }

  @Test
  void aReloadRewritesTheTypeDeclarationsOfTheChangedTools() throws Exception {
    String files =
        """
        == .svc
        name: scripted
        == app/tools/greet/config.terse
        description: Greets.
        inputs:
          name:
            description: Who.
        == app/tools/greet/handler.ts
        export default ({ inputs }: Svc.HandlerPayload<"greet">) => `hello ${inputs.name}`;
        """;
    try (Watched watched = watch(files)) {
      Files.writeString(
          dir.resolve("app/tools/greet/config.terse"),
          "description: Greets.\ninputs:\n  name:\n    description: Who.\n"
              + "  times:\n    type: int\n    optional: true\n");

      Path declarations = dir.resolve(".svc-types/svc.d.ts");
      long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
      while (System.nanoTime() < end
          && !(Files.exists(declarations) && Files.readString(declarations).contains("times?"))) {
        Thread.sleep(100);
      }
      assertThat(declarations).content().contains("name: string;").contains("times?: number;");
      assertThat(watched.err().toString()).doesNotContain("error[");
    }
  }

  @Test
  void onlySessionsSubscribedToAResourceHearThatItChanged() throws Exception {
    try (Watched watched = watch(PROJECT)) {
      McpHttpClient subscriber = new McpHttpClient(watched.instance().baseUrl());
      subscriber.initialize();
      McpHttpClient bystander = new McpHttpClient(watched.instance().baseUrl());
      bystander.initialize();
      assertThat(
              subscriber.request("resources/subscribe", "{\"uri\":\"docs://doc\"}").has("result"))
          .isTrue();
      BlockingQueue<String> subscribed = openStream(subscriber);
      BlockingQueue<String> other = openStream(bystander);

      // each change also adds a tool, so both sessions hear something and the streams are alive
      ProjectFixture.write(
          dir,
          """
          == app/resources/doc/doc.md
          version 2
          == app/tools/second/config.terse
          description: Second tool.
          use: db
          statement: SELECT 2 AS value
          """);
      assertThat(awaitEvent(subscribed, "notifications/tools/list_changed")).isTrue();
      assertThat(awaitEvent(subscribed, "notifications/resources/updated")).isTrue();
      assertThat(awaitEvent(other, "notifications/tools/list_changed")).isTrue();
      assertThat(drain(other)).noneMatch(l -> l.contains("resources/updated"));

      assertThat(
              subscriber.request("resources/unsubscribe", "{\"uri\":\"docs://doc\"}").has("result"))
          .isTrue();
      ProjectFixture.write(
          dir,
          """
          == app/resources/doc/doc.md
          version 3
          == app/tools/third/config.terse
          description: Third tool.
          use: db
          statement: SELECT 3 AS value
          """);
      assertThat(awaitEvent(subscribed, "notifications/tools/list_changed")).isTrue();
      assertThat(drain(subscribed)).noneMatch(l -> l.contains("resources/updated"));
      assertThat(awaitEvent(other, "notifications/tools/list_changed")).isTrue();
      assertThat(drain(other)).noneMatch(l -> l.contains("resources/updated"));
      assertThat(
              subscriber
                  .request("resources/read", "{\"uri\":\"docs://doc\"}")
                  .path("result")
                  .path("contents")
                  .get(0)
                  .path("text")
                  .asString())
          .startsWith("version 3");
    }
  }

  private static String greeting(McpHttpClient client) {
    return client
        .call("greet", "{}")
        .path("result")
        .path("structuredContent")
        .path("greeting")
        .asString();
  }

  private static void awaitGreeting(McpHttpClient client, String expected)
      throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (System.nanoTime() < end && !greeting(client).equals(expected)) {
      Thread.sleep(100);
    }
    assertThat(greeting(client)).isEqualTo(expected);
  }

  /** The lines that arrive within a short while: what a reload sent after the awaited event. */
  private static List<String> drain(BlockingQueue<String> lines) throws InterruptedException {
    List<String> drained = new ArrayList<>();
    long end = System.nanoTime() + Duration.ofMillis(500).toNanos();
    while (System.nanoTime() < end) {
      String line = lines.poll(50, TimeUnit.MILLISECONDS);
      if (line != null) {
        drained.add(line);
      }
    }
    return drained;
  }

  /** Opens the session's GET stream and returns once the server has attached it. */
  private static BlockingQueue<String> openStream(McpHttpClient client)
      throws InterruptedException {
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
    String first = lines.poll(15, TimeUnit.SECONDS);
    assertThat(first).as("the stream opened").startsWith(":");
    return lines;
  }

  private static boolean awaitEvent(BlockingQueue<String> lines, String method)
      throws InterruptedException {
    return awaitEvent(lines, method, new ArrayList<>());
  }

  /** Waits for a line naming {@code method}, keeping every line read in {@code seen}. */
  private static boolean awaitEvent(BlockingQueue<String> lines, String method, List<String> seen)
      throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (System.nanoTime() < end) {
      String line = lines.poll(200, TimeUnit.MILLISECONDS);
      if (line != null) {
        seen.add(line);
      }
      if (line != null && line.contains(method)) {
        return true;
      }
    }
    return false;
  }

  private static void awaitText(Supplier<String> out, String text) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (System.nanoTime() < end && !out.get().contains(text)) {
      Thread.sleep(100);
    }
    assertThat(out.get()).contains(text);
  }
}
