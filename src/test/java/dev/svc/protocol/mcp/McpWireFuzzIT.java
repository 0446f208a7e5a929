package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import dev.svc.testing.WireFuzzer;
import dev.svc.testing.WireFuzzer.Request;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Mutated MCP requests, thousands of them, at a real server: valid requests of both revisions
 * (2025-11-25 in a session, 2026-07-28 stateless) with a value, a key, a header or the bytes
 * themselves changed at random. Whatever arrives, the server answers it with a status and, where it
 * answers JSON, with well-formed JSON-RPC; never with a 5xx, never by closing without a word, never
 * with an error in its own log; and it serves a plain call afterwards.
 *
 * <p>The campaign is the same on every run (fixed seeds). A longer or another one: {@code
 * -Dsvc.fuzz.seed=N -Dsvc.fuzz.requests=M}; a failure names the seed and the request that caused
 * it, so it can be replayed.
 */
class McpWireFuzzIT {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final long SEED = Long.getLong("svc.fuzz.seed", 20261127L);
  private static final int REQUESTS = Integer.getInteger("svc.fuzz.requests", 1500);

  private static final List<String> METHODS =
      List.of(
          "initialize",
          "ping",
          "tools/list",
          "tools/call",
          "prompts/list",
          "prompts/get",
          "resources/list",
          "resources/read",
          "resources/templates/list",
          "completion/complete",
          "logging/setLevel",
          "server/discover",
          "notifications/initialized",
          "notifications/cancelled",
          "notifications/progress",
          "nope/never");

  @TempDir static Path dir;
  static Instance instance;
  static String session;

  @BeforeAll
  static void start() {
    instance =
        RunningProject.start(
            dir,
            """
            == .svc
            name: shop
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/get_product/config.terse
            description: A product.
            use: db
            statement: SELECT {{ inputs.id }} AS id, {{ inputs.name }} AS name
            inputs:
              id: {type: int, description: The product's id}
              name: {type: string, description: A name, required: false}
            == app/tools/greet/config.terse
            description: Greets.
            inputs:
              name: {type: string, description: Who}
              times: {type: int, description: How often, required: false}
            == app/tools/greet/handler.ts
            export default ({ inputs }) => ({ greeting: "Hello " + inputs.name, n: inputs.times });
            == app/resources/doc/config.terse
            name: doc
            uri: docs://doc
            file: doc.md
            == app/resources/doc/doc.md
            the doc
            == app/prompts/hello.terse
            arguments:
              name: {description: Who, required: true}
            messages:
              - role: user
                text: Hello {{ name }}
            """);
    McpHttpClient client = new McpHttpClient(instance.baseUrl());
    client.initialize();
    session = client.session().orElseThrow();
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  @Test
  void mutatedRequestsOneAfterAnotherGetAPreciseAnswerAndTheServerKeepsServing() {
    WireFuzzer.assertHeld(
        "seed " + SEED,
        () -> fuzzer().campaign(SEED, REQUESTS, McpWireFuzzIT::seed),
        McpWireFuzzIT::assertServesAPlainCall);
  }

  @Test
  void mutatedRequestsFromEightClientsAtOnceGetAPreciseAnswerAndTheServerKeepsServing() {
    WireFuzzer.assertHeld(
        "seeds " + (SEED + 1_000) + "…" + (SEED + 1_007),
        () -> fuzzer().campaignAtOnce(SEED + 1_000, 8, REQUESTS / 8, McpWireFuzzIT::seed),
        McpWireFuzzIT::assertServesAPlainCall);
  }

  private static void assertServesAPlainCall() {
    McpHttpClient client = new McpHttpClient(instance.baseUrl());
    client.useSession(session);
    assertThat(
            client
                .call("get_product", "{\"id\":3}")
                .path("result")
                .path("structuredContent")
                .toString())
        .contains("\"id\":3");
    assertThat(client.call("greet", "{\"name\":\"Ada\"}").toString()).contains("Hello Ada");
  }

  /**
   * Found by this fuzzer (seeds 51–55): a lone surrogate ({@code "\\uDE6C"}) in a handler's
   * argument came back in its answer, Jackson refused to write it as UTF-8, and the call ended with
   * a 500. Now every lone surrogate is U+FFFD where the request is read.
   */
  @Test
  void aLoneSurrogateInAnArgumentIsTheReplacementCharacter() {
    McpHttpClient client = new McpHttpClient(instance.baseUrl());
    client.initialize();
    assertThat(client.call("greet", "{\"name\":\"a\\uDE6Cb\",\"times\":2}").toString())
        .contains("Hello a\uFFFDb");
    JsonNode prompt =
        client.request("prompts/get", "{\"name\":\"hello\",\"arguments\":{\"name\":\"x\\uD82D\"}}");
    assertThat(prompt.toString()).contains("Hello x\uFFFD");
  }

  private static WireFuzzer fuzzer() {
    List<String> words = new ArrayList<>(METHODS);
    words.addAll(
        List.of(
            "id",
            "method",
            "params",
            "jsonrpc",
            "name",
            "arguments",
            "uri",
            "_meta",
            "progressToken",
            "io.modelcontextprotocol/protocolVersion",
            "io.modelcontextprotocol/clientCapabilities",
            "cursor",
            "level",
            "ref",
            "argument",
            "value",
            "requestId",
            "result",
            "error",
            "2025-11-25",
            "2026-07-28",
            "2025-06-18",
            "get_product",
            "greet",
            "hello",
            "docs://doc",
            "docs://../../etc/passwd",
            "file:///etc/passwd",
            "ref/prompt",
            "ref/resource",
            "debug",
            "emergency",
            "NaN",
            "1e999"));
    return new WireFuzzer(
        instance.port(),
        words,
        List.of(
            "Content-Type",
            "Accept",
            "MCP-Protocol-Version",
            "Mcp-Session-Id",
            "Mcp-Method",
            "Mcp-Name",
            "Origin",
            "Authorization",
            "Last-Event-ID",
            "Accept-Encoding",
            "Content-Encoding",
            "X-Forwarded-Host"),
        List.of(
            "application/json",
            "application/json; charset=utf-16",
            "application/json; charset=nonsense",
            "text/plain",
            "text/event-stream",
            "*/*",
            "multipart/form-data; boundary=x",
            "2025-11-25",
            "2026-07-28",
            "1999-01-01",
            "tools/call",
            "get_product",
            "greet",
            "http://evil.example",
            "null",
            "Bearer x",
            "gzip",
            "deflate",
            "5",
            session,
            session.substring(0, session.length() / 2)));
  }

  // --- seeds: valid requests ---

  private static Request seed(Random random) {
    boolean stateless = random.nextInt(3) == 0;
    String method;
    ObjectNode params = NODES.objectNode();
    switch (random.nextInt(11)) {
      case 0 -> {
        method = "tools/call";
        params.put("name", "get_product");
        params.putObject("arguments").put("id", random.nextInt(100)).put("name", "pen");
      }
      case 1 -> {
        method = "tools/call";
        params.put("name", "greet");
        params.putObject("arguments").put("name", "Ada").put("times", 2);
      }
      case 2 -> method = "tools/list";
      case 3 -> {
        method = "prompts/get";
        params.put("name", "hello");
        params.putObject("arguments").put("name", "Bob");
      }
      case 4 -> {
        method = "resources/read";
        params.put("uri", "docs://doc");
      }
      case 5 -> {
        method = "completion/complete";
        params.putObject("ref").put("type", "ref/prompt").put("name", "hello");
        params.putObject("argument").put("name", "name").put("value", "B");
      }
      case 6 -> {
        method = "logging/setLevel";
        params.put("level", "info");
      }
      case 7 -> {
        method = "notifications/cancelled";
        params.put("requestId", 5).put("reason", "because");
      }
      case 8 -> {
        method = "initialize";
        params.put("protocolVersion", "2025-11-25");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "fuzz").put("version", "1");
        stateless = false;
      }
      case 9 -> method = stateless ? "server/discover" : "ping";
      default -> method = "resources/list";
    }
    ObjectNode body = NODES.objectNode();
    body.put("jsonrpc", "2.0");
    if (!method.startsWith("notifications/")) {
      body.put("id", random.nextInt(1_000));
    }
    body.put("method", method);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Host", "localhost");
    headers.put("Content-Type", "application/json");
    headers.put("Accept", "application/json, text/event-stream");
    if (stateless) {
      params.set("_meta", StatelessMcpClient.meta());
      String[] standard = StatelessMcpClient.standardHeaders(method, params);
      for (int h = 0; h + 1 < standard.length; h += 2) {
        headers.put(standard[h], standard[h + 1]);
      }
    } else if (!method.equals("initialize")) {
      headers.put("Mcp-Session-Id", session);
      headers.put("MCP-Protocol-Version", "2025-11-25");
    }
    body.set("params", params);
    return new Request("/mcp", headers, WireFuzzer.bytes(body));
  }
}
