package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.log.Level;
import dev.svc.log.LogFormat;
import dev.svc.log.TagFilter;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.McpHttpClient.Reply;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Names a client sends, of any length up to the body limit: each unknown one gets a short error
 * that shows its beginning and its length, and no number of them at once stops the server.
 */
class HugeNamesIT {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Just under the 4 MiB body limit once quoted in a request. */
  private static final String HUGE = "x".repeat(4_000_000);

  @TempDir static Path dir;
  static Instance instance;
  static McpHttpClient client;

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
            statement: SELECT {{ inputs.id }} AS id
            inputs:
              id: {type: int, description: The product's id}
            == app/tools/list_products/config.terse
            description: All products.
            use: db
            statement: SELECT 1 AS id
            == app/resources/doc/config.terse
            name: doc
            uri: docs://doc
            file: doc.md
            == app/resources/doc/doc.md
            the doc
            == app/prompts/hello.terse
            messages:
              - role: user
                text: Hello
            """);
    client = new McpHttpClient(instance.baseUrl());
    client.initialize();
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  private static String request(String method, ObjectNode params) {
    return request(7, method, params);
  }

  /**
   * A request with an id of its own: requests in flight at once in one session need distinct ids.
   */
  private static String request(int id, String method, ObjectNode params) {
    ObjectNode body = JSON.createObjectNode();
    body.put("jsonrpc", "2.0");
    body.put("id", id);
    body.put("method", method);
    body.set("params", params);
    return JSON.writeValueAsString(body);
  }

  private static JsonNode error(Reply reply) {
    String body = reply.body();
    assertThat(body.length()).as(body.substring(0, Math.min(300, body.length()))).isLessThan(1_000);
    return reply.json().path("error");
  }

  @Test
  void anUnknownToolPromptResourceOrMethodOfFourMegabytesGetsAShortError() {
    JsonNode tool =
        error(
            client.post(
                request(
                    "tools/call",
                    JSON.createObjectNode()
                        .put("name", HUGE)
                        .set("arguments", JSON.createObjectNode()))));
    assertThat(tool.path("code").asInt()).isEqualTo(-32602);
    assertThat(tool.path("message").asString())
        .startsWith("Unknown tool: xxxxxxxxxx")
        .endsWith("… (4000000 characters)");

    JsonNode prompt =
        error(client.post(request("prompts/get", JSON.createObjectNode().put("name", HUGE))));
    assertThat(prompt.path("message").asString()).endsWith("… (4000000 characters)");

    JsonNode resource =
        error(client.post(request("resources/read", JSON.createObjectNode().put("uri", HUGE))));
    assertThat(resource.path("code").asInt()).isEqualTo(-32002);
    assertThat(resource.path("data").path("uri").asString()).endsWith("… (4000000 characters)");

    JsonNode method = error(client.post(request(HUGE, JSON.createObjectNode())));
    assertThat(method.path("code").asInt()).isEqualTo(-32601);
    assertThat(method.path("message").asString()).endsWith("… (4000000 characters)");

    JsonNode level =
        error(client.post(request("logging/setLevel", JSON.createObjectNode().put("level", HUGE))));
    assertThat(level.path("message").asString()).contains("… (4000000 characters)");
  }

  @Test
  void aResponseWithAHugeIdThatNoRequestAwaitsWritesAShortDebugLine() {
    // before: the id was logged whole, a debug line of 4 MB for one request
    String written;
    try (CapturedLog log = CapturedLog.at(Level.DEBUG, LogFormat.JSON, TagFilter.parse("mcp"))) {
      ObjectNode body = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", HUGE);
      body.set("result", JSON.createObjectNode());
      assertThat(client.post(JSON.writeValueAsString(body)).status()).isEqualTo(202);
      written = log.text();
    }
    assertThat(written).contains("a response to no waiting request was dropped", "characters)");
    assertThat(written.length()).isLessThan(2_000);
  }

  @Test
  void aRevisionOfFourMegabytesInTheBodyOrOfThousandsOfCharactersInTheHeaderGetsAShortError() {
    // before: the revision asked for was repeated whole (a 4 MB error; found by McpWireFuzzIT)
    ObjectNode meta =
        StatelessMcpClient.meta().put("io.modelcontextprotocol/protocolVersion", HUGE);
    ObjectNode params = JSON.createObjectNode();
    params.set("_meta", meta);
    Reply body =
        new StatelessMcpClient(instance.baseUrl())
            .postRaw(
                request("tools/list", params), "MCP-Protocol-Version", HUGE.substring(0, 6_000));
    assertThat(body.status()).isEqualTo(400);
    assertThat(error(body).path("message").asString()).contains("… (");

    Reply unknown =
        new StatelessMcpClient(instance.baseUrl())
            .postRaw(
                request("tools/list", params("2026-07-28")),
                "MCP-Protocol-Version",
                HUGE.substring(0, 6_000),
                "Mcp-Method",
                "tools/list");
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(error(unknown).path("message").asString())
        .startsWith("Header mismatch: MCP-Protocol-Version is xxxx")
        .contains("… (6000 characters)");

    Reply session =
        client.post(
            request("tools/list", JSON.createObjectNode()),
            "MCP-Protocol-Version",
            HUGE.substring(0, 6_000));
    assertThat(session.status()).isEqualTo(400);
    assertThat(error(session).path("message").asString())
        .startsWith("Bad Request: unsupported MCP-Protocol-Version xxxx")
        .contains("… (6000 characters)");
  }

  private static ObjectNode params(String revision) {
    ObjectNode params = JSON.createObjectNode();
    params.set(
        "_meta",
        StatelessMcpClient.meta().put("io.modelcontextprotocol/protocolVersion", revision));
    return params;
  }

  @Test
  void anUnknownArgumentOfFortyThousandCharactersIsNamedShortly() {
    String key = "k".repeat(40_000); // Jackson reads names of up to 50,000 characters
    JsonNode result = client.call("get_product", "{\"id\":1,\"" + key + "\":2}").path("result");
    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.path("content").get(0).path("text").asString())
        .hasSizeLessThan(400)
        .contains("… (40000 characters)");
  }

  @Test
  void aPromptArgumentOfFortyThousandCharactersThatIsNoStringIsNamedShortly() {
    // found by McpWireFuzzIT (seed 31): the name was repeated whole in the error
    String key = "k".repeat(40_000);
    JsonNode error =
        client.request(
            "prompts/get", "{\"name\":\"hello\",\"arguments\":{\"" + key + "\":{\"a\":1}}}");
    assertThat(error.path("error").path("message").asString())
        .hasSizeLessThan(400)
        .startsWith("argument `kkk")
        .contains("… (40000 characters)` must be a string");
  }

  @Test
  void aNearMissIsStillSuggestedAndAHugeNameBeginningWithAToolSuggestsIt() {
    JsonNode typo = client.request("tools/call", "{\"name\":\"get_prodcut\",\"arguments\":{}}");
    assertThat(typo.path("error").path("message").asString())
        .isEqualTo("Unknown tool: get_prodcut; did you mean `get_product`?");

    JsonNode stem =
        error(
            client.post(
                request(
                    "tools/call",
                    JSON.createObjectNode()
                        .put("name", "list_products" + HUGE)
                        .set("arguments", JSON.createObjectNode()))));
    assertThat(stem.path("message").asString()).endsWith("did you mean `list_products`?");
  }

  @Test
  void manyHugeUnknownNamesAtOnceLeaveTheServerServing() throws Exception {
    // before: each request's suggestion allocated a matrix of the name's length per tool
    // (~400 MB), and three at once ended the process with OutOfMemoryError
    List<Callable<Integer>> calls = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String body =
          request(
              100 + i,
              "tools/call",
              JSON.createObjectNode().put("name", HUGE).set("arguments", JSON.createObjectNode()));
      calls.add(() -> client.post(body).json().path("error").path("code").asInt());
    }
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      for (Future<Integer> answer : pool.invokeAll(calls)) {
        assertThat(answer.get()).isEqualTo(-32602);
      }
    }
    assertThat(client.call("get_product", "{\"id\":3}").path("result").path("isError").asBoolean())
        .isFalse();
  }
}
