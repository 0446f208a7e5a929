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
            == app/tools/mapped/config.terse
            description: A product through transforms, cached.
            use: db
            statement: SELECT {{ inputs.id }} AS id, {{ inputs.label }} AS label
            inputs:
              id: {type: int, description: Id}
              label: {type: string, description: Label, required: false}
            cache: {enabled: true, ttl: 60}
            == app/tools/mapped/input.ts
            export default ({ inputs }) => ({ ...inputs, label: String(inputs.label ?? "none") });
            == app/tools/mapped/output.ts
            export default ({ results }) => ({ wrapped: results });
            == app/tools/keyed/config.terse
            description: Behind a key, rate limited.
            use: db
            statement: SELECT {{ inputs.n }} AS n
            inputs:
              n: {type: int, description: N}
            auth:
              plugin: api_key
              policy: {value: fuzz-key}
            rate_limit: {requests: 100000, per: 1m}
            == app/tools/checked/config.terse
            description: Arguments by a schema of its own.
            input_schema:
              type: object
              properties:
                tags: {type: array, items: {type: string}, maxItems: 5}
                n: {type: integer, minimum: 0}
              required: [n]
            == app/tools/checked/handler.ts
            export default ({ inputs }) => ({ echoed: inputs });
            == app/resources/greeting/config.terse
            uri_template: docs://greeting/{name}
            text_template: "Hello, {{ name }}!"
            arguments:
              name:
                description: Who.
                required: true
                completion: [Ada, Bob]
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

  /** The seeds are valid requests: each kind of tool and resource answers them as it should. */
  @Test
  void theSeedsToolsAndResourcesAnswerPlainCalls() {
    McpHttpClient client = new McpHttpClient(instance.baseUrl());
    client.initialize();
    assertThat(client.call("mapped", "{\"id\":2,\"label\":\"a\"}").toString())
        .contains("wrapped")
        .contains("\\\"label\\\":\\\"a\\\"")
        .doesNotContain("\"isError\":true");
    assertThat(client.call("checked", "{\"n\":3,\"tags\":[\"a\"]}").toString())
        .contains("echoed")
        .doesNotContain("\"isError\":true");
    assertThat(client.call("keyed", "{\"n\":1}").toString())
        .contains("authentication failed: missing API key");
    assertThat(
            client
                .post(
                    client.requestBody(
                        "tools/call", "{\"name\":\"keyed\",\"arguments\":{\"n\":1}}"),
                    "X-API-Key",
                    "fuzz-key")
                .body())
        .contains("\"isError\":false");
    assertThat(client.request("resources/read", "{\"uri\":\"docs://greeting/Ada\"}").toString())
        .contains("Hello, Ada!");
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
            "mapped",
            "keyed",
            "checked",
            "tags",
            "label",
            "docs://greeting/Ada",
            "docs://greeting/{name}",
            "ref/resource",
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
            "X-API-Key",
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
            "fuzz-key",
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
    String apiKey = null;
    switch (random.nextInt(16)) {
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
      case 10 -> {
        method = "tools/call";
        params.put("name", "mapped");
        params.putObject("arguments").put("id", random.nextInt(5)).put("label", "a");
      }
      case 11 -> {
        method = "tools/call";
        params.put("name", "keyed");
        params.putObject("arguments").put("n", random.nextInt(100));
        apiKey = "fuzz-key";
      }
      case 12 -> {
        method = "tools/call";
        params.put("name", "checked");
        ObjectNode arguments = params.putObject("arguments").put("n", 3);
        arguments.putArray("tags").add("a").add("b");
      }
      case 13 -> {
        method = "resources/read";
        params.put("uri", "docs://greeting/Ada");
      }
      case 14 -> {
        method = "completion/complete";
        params.putObject("ref").put("type", "ref/resource").put("uri", "docs://greeting/{name}");
        params.putObject("argument").put("name", "name").put("value", "A");
      }
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
    if (apiKey != null) {
      headers.put("X-API-Key", apiKey);
    }
    body.set("params", params);
    return new Request("/mcp", headers, WireFuzzer.bytes(body));
  }
}
