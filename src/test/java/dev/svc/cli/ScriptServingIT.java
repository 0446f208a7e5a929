package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.testing.ProjectFixture;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A script tool served over MCP for real: the instance wires the V8 runner, a handler answers
 * {@code tools/call}, and its console output reaches a client that set a log level as {@code
 * notifications/message} on the request's event stream.
 */
class ScriptServingIT {
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;
  Instance instance;
  final HttpClient http = HttpClient.newHttpClient();
  String session;

  @BeforeEach
  void start() throws Exception {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: served
            == app/tools/greet/config.terse
            description: Greets and says so in the log.
            inputs:
              name: {type: string}
            == app/tools/greet/handler.ts
            export default ({ inputs }: { inputs: { name: string } }) => {
              console.info(`greeting ${inputs.name}`);
              console.debug("a detail");
              return { greeting: `Hello ${inputs.name}` };
            };
            == app/tools/broken/config.terse
            description: Throws.
            == app/tools/broken/handler.ts
            export default () => { throw new Error("out of greetings"); };
            == app/tools/deep/config.terse
            description: Recurses without end.
            == app/tools/deep/handler.ts
            const down = (n: number): number => (n === 0 ? 0 : 1 + down(n - 1));
            export default () => down(1e9);
            """);
    instance =
        Instance.launch(
            model,
            new Instance.Options(
                Environment.of(Map.of()),
                dir,
                "127.0.0.1",
                0,
                false,
                adapter -> {
                  throw new ConnectorUnavailableException("no adapters here");
                }));
    HttpResponse<String> init =
        post(
            null,
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}");
    session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  @AfterEach
  void stop() {
    instance.close();
  }

  HttpResponse<String> post(String sessionId, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(instance.baseUrl() + "/mcp"))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (sessionId != null) {
      request.header("Mcp-Session-Id", sessionId);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The JSON messages of a response: its body, or each {@code data:} line of an event stream. */
  static List<JsonNode> messages(HttpResponse<String> response) {
    List<JsonNode> messages = new ArrayList<>();
    if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
      for (String line : response.body().split("\n")) {
        if (line.startsWith("data: ")) {
          messages.add(JSON.readTree(line.substring(6)));
        }
      }
    } else {
      messages.add(JSON.readTree(response.body()));
    }
    return messages;
  }

  static String call(String tool, String arguments) {
    return call(1, tool, arguments);
  }

  /** A call with an id of its own: calls in flight at once in one session need distinct ids. */
  static String call(int id, String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool
        + "\",\"arguments\":"
        + arguments
        + "}}";
  }

  @Test
  void aHandlerToolAnswersToolsCall() throws Exception {
    List<JsonNode> messages = messages(post(session, call("greet", "{\"name\":\"Ada\"}")));

    assertThat(messages).hasSize(1);
    JsonNode result = messages.getFirst().path("result");
    assertThat(result.path("isError").asBoolean(false)).isFalse();
    assertThat(result.path("structuredContent"))
        .isEqualTo(JSON.readTree("{\"greeting\":\"Hello Ada\"}"));
  }

  @Test
  void aHandlerThatThrowsGivesAnErrorResultWithItsMessageOnly() throws Exception {
    JsonNode result = messages(post(session, call("broken", "{}"))).getFirst().path("result");

    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.path("content").path(0).path("text").asString())
        .isEqualTo("out of greetings");
  }

  @Test
  void runawayRecursionOnTheRequestThreadsIsAToolError_andTheServerGoesOnServing()
      throws Exception {
    try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
      List<java.util.concurrent.Future<HttpResponse<String>>> calls = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        String deep = call(100 + i, "deep", "{}");
        calls.add(threads.submit(() -> post(session, deep)));
      }
      for (var response : calls) {
        JsonNode result = messages(response.get()).getFirst().path("result");
        assertThat(result.path("isError").asBoolean()).isTrue();
        assertThat(result.path("content").path(0).path("text").asString())
            .isEqualTo("Maximum call stack size exceeded");
      }
    }
    JsonNode result =
        messages(post(session, call("greet", "{\"name\":\"Ada\"}"))).getFirst().path("result");
    assertThat(result.path("structuredContent").path("greeting").asString()).isEqualTo("Hello Ada");
  }

  @Test
  void aReloadServesTheChangedScript() throws Exception {
    Model changed =
        ProjectFixture.model(
            dir,
            """
            == app/tools/greet/handler.ts
            export default ({ inputs }: { inputs: { name: string } }) => ({ greeting: `Hi ${inputs.name}` });
            """);

    instance.reload(changed, java.util.Set.of("app/tools/greet/handler.ts"));

    JsonNode result =
        messages(post(session, call("greet", "{\"name\":\"Ada\"}"))).getFirst().path("result");
    assertThat(result.path("structuredContent").path("greeting").asString()).isEqualTo("Hi Ada");
  }

  @Test
  void consoleOutputAtOrAboveTheClientsLevelIsSentAsNotifications() throws Exception {
    post(
        session,
        "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"info\"}}");

    List<JsonNode> messages = messages(post(session, call("greet", "{\"name\":\"Ada\"}")));

    List<JsonNode> logs =
        messages.stream()
            .filter(m -> m.path("method").asString("").equals("notifications/message"))
            .toList();
    assertThat(logs).hasSize(1);
    assertThat(logs.getFirst().path("params").path("level").asString()).isEqualTo("info");
    // MCP's shape: the source as `logger`, the message as `data` (a string every client shows)
    assertThat(logs.getFirst().path("params").path("data").asString()).isEqualTo("greeting Ada");
    assertThat(logs.getFirst().path("params").path("logger").asString()).isEqualTo("script:greet");
    assertThat(
            messages.getLast().path("result").path("structuredContent").path("greeting").asString())
        .isEqualTo("Hello Ada");
  }

  /**
   * A project with endless-loop tools that first tell {@code started} (a local HTTP server) that
   * they run, and a quick tool with a short timeout, launched with {@code environment}.
   */
  Instance launchWithRunaways(
      Path project, String started, int quickTimeoutSeconds, Map<String, String> environment) {
    Model model =
        ProjectFixture.model(
            project,
            """
            == .svc
            name: runaways
            scripts:
              fetch:
                allow_private_networks: true # the signal server is on loopback
            == app/tools/quick/config.terse
            description: Answers at once.
            timeout: %2$d
            == app/tools/quick/handler.ts
            export default () => ({ quick: true });
            == app/tools/spin_a/config.terse
            description: Never returns.
            timeout: 60
            == app/tools/spin_a/handler.ts
            export default async () => { await fetch("%1$s"); while (true) {} };
            == app/tools/spin_b/config.terse
            description: Never returns either.
            timeout: 60
            == app/tools/spin_b/handler.ts
            export default async () => { await fetch("%1$s"); while (true) {} };
            """
                .formatted(started, quickTimeoutSeconds));
    return Instance.launch(
        model,
        new Instance.Options(
            Environment.of(environment),
            project,
            "127.0.0.1",
            0,
            false,
            adapter -> {
              throw new ConnectorUnavailableException("no adapters here");
            }));
  }

  /** A {@code tools/call} of {@code tool} with the request id {@code id}. */
  static Runnable callWithId(dev.svc.testing.McpHttpClient client, String id, String tool) {
    return () ->
        client.post(
            "{\"jsonrpc\":\"2.0\",\"id\":\""
                + id
                + "\",\"method\":\"tools/call\",\"params\":{\"name\":\""
                + tool
                + "\",\"arguments\":{}}}");
  }

  /** Cancels the call with the request id {@code id}, which stops its script. */
  static void cancel(dev.svc.testing.McpHttpClient client, String id) {
    client.post(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\""
            + id
            + "\"}}");
  }

  /** A local HTTP server whose every request counts down {@code hits}. */
  static com.sun.net.httpserver.HttpServer signal(java.util.concurrent.CountDownLatch hits)
      throws IOException {
    com.sun.net.httpserver.HttpServer server =
        com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          hits.countDown();
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.start();
    return server;
  }

  @Test
  void aQuickToolAnswersWhileRunawayCallsHoldEveryIsolate() throws Exception {
    java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(4);
    com.sun.net.httpserver.HttpServer started = signal(running);
    String url = "http://127.0.0.1:" + started.getAddress().getPort() + "/started";
    try (Instance served =
            launchWithRunaways(
                dir.resolve("runaways"),
                url,
                10,
                Map.of("SVC_SCRIPT_ISOLATES", "2", "SVC_SCRIPT_CALLER_SLOTS", "0"));
        var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
      dev.svc.testing.McpHttpClient client = new dev.svc.testing.McpHttpClient(served.baseUrl());
      client.initialize();
      List<java.util.concurrent.Future<?>> loops = new ArrayList<>();
      List<String> tools = List.of("spin_a", "spin_a", "spin_b", "spin_b");
      for (int i = 0; i < tools.size(); i++) {
        loops.add(threads.submit(callWithId(client, "loop-" + i, tools.get(i))));
      }
      assertThat(running.await(30, java.util.concurrent.TimeUnit.SECONDS))
          .as("four endless loops run, on twice as many isolates as SVC_SCRIPT_ISOLATES")
          .isTrue();

      JsonNode quick = client.call("quick", "{}").path("result");

      assertThat(quick.path("isError").asBoolean(false)).as(quick.toString()).isFalse();
      assertThat(quick.path("structuredContent").path("quick").asBoolean()).isTrue();
      assertThat(loops)
          .as("the endless loops still run")
          .noneMatch(java.util.concurrent.Future::isDone);
      for (int i = 0; i < tools.size(); i++) {
        cancel(client, "loop-" + i);
      }
    } finally {
      started.stop(0);
    }
  }

  @Test
  void aCallBeyondTheScriptMemoryCeilingFailsAtItsDeadlineWithAMessageSayingSo() throws Exception {
    java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
    com.sun.net.httpserver.HttpServer started = signal(running);
    String url = "http://127.0.0.1:" + started.getAddress().getPort() + "/started";
    try (Instance served =
            launchWithRunaways(
                dir.resolve("ceiling"),
                url,
                2,
                Map.of("SVC_SCRIPT_MEMORY_MB", "128", "SVC_SCRIPT_CALLER_SLOTS", "0"));
        var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
      dev.svc.testing.McpHttpClient client = new dev.svc.testing.McpHttpClient(served.baseUrl());
      client.initialize();
      var loop = threads.submit(callWithId(client, "loop", "spin_a"));
      assertThat(running.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

      JsonNode quick = client.call("quick", "{}").path("result");

      assertThat(quick.path("isError").asBoolean()).as(quick.toString()).isTrue();
      assertThat(quick.path("content").path(0).path("text").asString())
          .isEqualTo(
              "the script could not start within 2 s: the script sandbox is at its memory"
                  + " ceiling (128 MiB, 1 isolate), all busy with other calls");
      assertThat(loop.isDone()).isFalse();
      cancel(client, "loop");
    } finally {
      started.stop(0);
    }
  }
}
