package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.connector.Connectors;
import dev.svc.json.Json;
import dev.svc.log.Log;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.RawHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The dev console's routes over plain HTTP, hostile cases first: {@code /ui} exists only with
 * {@code --ui}; every {@code /ui} route applies the same {@code Host}/{@code Origin} policy as
 * {@code /mcp}, and {@code /ui/events} the same token; the page's own origin passes under a name
 * listed in {@code server.allowed_hosts}. The browser side is DevConsoleIT.
 */
class DevConsoleHttpIT {
  static final List<String> ROUTES =
      List.of(
          "/ui",
          "/ui/",
          "/ui/console.js",
          "/ui/console.css",
          "/ui/vendor/marked.js",
          "/ui/vendor/purify.js",
          "/ui/events");

  static final String PROJECT =
      """
      == .svc
      name: pets
      %s
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/find_pet/config.terse
      description: A pet by name.
      use: db
      statement: SELECT {{ inputs.name }} AS name
      inputs:
        name: {type: string}
      == app/agents/helper/config.terse
      description: Answers questions about pets.
      instruction: Answer briefly.
      model:
        provider: openai
        model: m
        options:
          base_url: http://127.0.0.1:9/v1
      """;

  static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;

  private Instance launch(String root, boolean console) {
    Model model = ProjectFixture.model(dir, PROJECT.formatted(root));
    return Instance.launch(
        model,
        new Instance.Options(Environment.of(Map.of()), dir, "127.0.0.1", 0, true, Connectors::open)
            .withConsole(console));
  }

  private static RawHttp.Answer get(int port, String path, String... headers) throws Exception {
    StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\n");
    boolean host = false;
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
      host |= headers[i].equalsIgnoreCase("Host");
    }
    if (!host) {
      request.append("Host: 127.0.0.1:").append(port).append("\r\n");
    }
    request.append("Connection: close\r\n\r\n");
    try (RawHttp http = RawHttp.connect(port)) {
      return http.send(request.toString()).read();
    }
  }

  @Test
  void withoutUiThereIsNoConsole() throws Exception {
    try (Instance instance = launch("", false)) {
      for (String path : ROUTES) {
        RawHttp.Answer answer = get(instance.port(), path);
        assertThat(answer.status()).as(path).isEqualTo(404);
        assertThat(answer.body()).contains("svc start --ui");
      }
    }
  }

  @Test
  void everyConsoleRouteRefusesAForeignOriginOrHost() throws Exception {
    try (Instance instance = launch("", true)) {
      int port = instance.port();
      for (String path : ROUTES) {
        assertThat(get(port, path, "Origin", "https://evil.example").status())
            .as("foreign Origin on " + path)
            .isEqualTo(403);
        assertThat(get(port, path, "Host", "evil.example").status())
            .as("foreign Host on " + path)
            .isEqualTo(403);
        assertThat(
                get(
                        port,
                        path,
                        "Origin",
                        "http://evil.example:" + port,
                        "Host",
                        "evil.example:" + port)
                    .status())
            .as("a rebound name's same-origin request on " + path)
            .isEqualTo(403);
      }
      RawHttp.Answer page = get(port, "/ui/", "Origin", "http://127.0.0.1:" + port);
      assertThat(page.status()).isEqualTo(200);
      assertThat(page.header("content-security-policy"))
          .hasValueSatisfying(
              csp -> assertThat(csp).contains("default-src 'none'", "connect-src 'self'"));
      assertThat(page.header("access-control-allow-origin")).as("same-origin only").isEmpty();
    }
  }

  @Test
  void unknownPathsAndOtherMethodsAreRefusedPrecisely() throws Exception {
    try (Instance instance = launch("", true)) {
      assertThat(get(instance.port(), "/ui/../mcp").status()).isIn(400, 404);
      RawHttp.Answer missing = get(instance.port(), "/ui/secrets.txt");
      assertThat(missing.status()).isEqualTo(404);
      assertThat(missing.body()).contains("/ui/events");
      assertThat(missing.headers()).containsEntry("x-content-type-options", "nosniff");
      HttpResponse<String> post =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(instance.baseUrl() + "/ui/events"))
                  .POST(HttpRequest.BodyPublishers.ofString("{}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
      assertThat(post.headers().firstValue("allow")).hasValue("GET, HEAD");
      assertThat(post.headers().firstValue("x-content-type-options")).hasValue("nosniff");
    }
  }

  @Test
  void withAuthTheEventsNeedTheTokenMcpNeedsWhileThePageItselfHoldsNoData() throws Exception {
    String auth =
        """
        server:
          auth:
            plugin: oauth
            policy:
              issuer: http://127.0.0.1:9/realms/none
              audience: https://svc.test/mcp
        """;
    try (Instance instance = launch(auth, true)) {
      RawHttp.Answer mcp = get(instance.port(), "/mcp");
      RawHttp.Answer events = get(instance.port(), "/ui/events");
      assertThat(mcp.status()).isEqualTo(401);
      assertThat(events.status()).isEqualTo(401);
      assertThat(events.header("www-authenticate"))
          .hasValueSatisfying(challenge ->
              assertThat(challenge)
                  .startsWith(
                      "Bearer resource_metadata=\""
                          + instance.baseUrl()
                          + "/.well-known/oauth-protected-resource"));
      RawHttp.Answer page = get(instance.port(), "/ui/");
      assertThat(page.status()).isEqualTo(200);
      assertThat(page.body()).doesNotContain("pets", "find_pet", "helper");
      for (String module : List.of("/ui/vendor/marked.js", "/ui/vendor/purify.js")) {
        RawHttp.Answer vendor = get(instance.port(), module);
        assertThat(vendor.status()).as(module).isEqualTo(200);
        assertThat(vendor.header("content-type")).hasValue("text/javascript; charset=utf-8");
        assertThat(vendor.body()).as(module).contains("export");
      }
    }
  }

  @Test
  void thePageOwnOriginPassesUnderANameListedInAllowedHosts() throws Exception {
    try (Instance instance = launch("server:\n  allowed_hosts: [svc.test]", true)) {
      int port = instance.port();
      String self = "svc.test:" + port;
      assertThat(get(port, "/ui/", "Host", self, "Origin", "http://" + self).status())
          .isEqualTo(200);
      String initialize =
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
              + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"page\",\"version\":\"1\"}}}";
      try (RawHttp http = RawHttp.connect(port)) {
        RawHttp.Answer mcp =
            http.send(
                    "POST /mcp HTTP/1.1\r\nHost: "
                        + self
                        + "\r\nOrigin: http://"
                        + self
                        + "\r\nContent-Type: application/json\r\nAccept: application/json,"
                        + " text/event-stream\r\nContent-Length: "
                        + initialize.length()
                        + "\r\nConnection: close\r\n\r\n"
                        + initialize)
                .read();
        assertThat(mcp.status()).as("the page's own MCP request").isEqualTo(200);
      }
      assertThat(get(port, "/ui/", "Host", self, "Origin", "http://other.test:" + port).status())
          .isEqualTo(403);
      assertThat(get(port, "/ui/", "Host", self, "Origin", "http://svc.test:1").status())
          .as("another port is another origin")
          .isEqualTo(403);
    }
  }

  @Test
  void theEventsNameTheAgentsThenCarryLogLinesAndReloads() throws Exception {
    try (Instance instance = launch("", true)) {
      HttpResponse<Stream<String>> response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(instance.baseUrl() + "/ui/events"))
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofLines());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream");
      assertThat(response.headers().firstValue("x-content-type-options")).hasValue("nosniff");
      Iterator<String> lines = response.body().iterator();
      JsonNode hello = next(lines);
      assertThat(hello.path("type").asString()).isEqualTo("hello");
      assertThat(hello.path("service").asString()).isEqualTo("pets");
      assertThat(hello.path("agents").get(0).path("name").asString()).isEqualTo("helper");

      Log.tagged("test").warn("a line for the console");
      List<String> logged = new ArrayList<>();
      while (logged.isEmpty() || !logged.getLast().contains("a line for the console")) {
        JsonNode event = next(lines);
        if (event.path("type").asString().equals("log")) {
          logged.add(event.path("line").asString());
        }
      }
      assertThat(logged.subList(0, logged.size() - 1))
          .as("a page starts with the lines written before it opened")
          .anySatisfy(line -> assertThat(line).contains("adapter ready"));

      Model next =
          ProjectFixture.model(
              dir.resolve("next"), PROJECT.formatted("").replace("AS name\n", "AS name, 1 AS n\n"));
      instance.reload(next, Set.of("app/tools/find_pet/config.terse"));
      JsonNode reload = next(lines);
      while (!reload.path("type").asString().equals("reload")) {
        reload = next(lines);
      }
      assertThat(reload.path("changedTools").toString()).isEqualTo("[\"find_pet\"]");
      assertThat(reload.path("agents").get(0).path("name").asString()).isEqualTo("helper");
      response.body().close();
    }
  }

  /** The next {@code data:} event of the stream. */
  private static JsonNode next(Iterator<String> lines) {
    while (lines.hasNext()) {
      String line = lines.next();
      if (line.startsWith("data: ")) {
        return Json.MAPPER.readTree(line.substring(6));
      }
    }
    throw new AssertionError("the event stream ended");
  }
}
