package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.McpHttpClient.Reply;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** MCP Streamable HTTP over a real server and a real SQLite database. */
class McpTransportIT {
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
            version: "1.2.3"
            == seed.sql
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/get_number/config.terse
            description: Echo a number as a row.
            use: db
            statement: SELECT {{ inputs.n }} AS n, 'text' AS label
            inputs:
              n: {type: int, description: A number}
            == app/tools/greeting/config.terse
            description: Greets someone by name in a friendly way.
            use: db
            statement: SELECT 'Hello ' || {{ inputs.name }} AS greeting
            inputs:
              name: {type: string, default: "world"}
            == app/tools/random_cached/config.terse
            description: A random number, cached.
            use: db
            statement: SELECT abs(random()) AS value
            cache: {enabled: true, ttl: 60}
            == app/tools/random_fresh/config.terse
            description: A random number, never cached.
            use: db
            statement: SELECT abs(random()) AS value
            == app/tools/secret/config.terse
            description: Needs an API key.
            use: db
            statement: SELECT 42 AS answer
            auth:
              plugin: api_key
              policy: {value: "{{ env.SECRET_KEY }}"}
            == app/tools/broken/config.terse
            description: The database rejects this statement.
            use: db
            statement: SELECT * FROM no_such_table
            """,
            Map.of("SECRET_KEY", "s3cret"));
    client = new McpHttpClient(instance.baseUrl());
    client.initialize();
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  @Test
  void initializeNegotiatesTheVersionAndIssuesASession() {
    McpHttpClient fresh = new McpHttpClient(instance.baseUrl());
    Reply reply =
        fresh.post(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.header("Mcp-Session-Id")).isPresent();
    JsonNode result = reply.json().path("result");
    assertThat(result.path("protocolVersion").asString()).isEqualTo("2025-06-18");
    assertThat(result.path("serverInfo").path("name").asString()).isEqualTo("shop");
    assertThat(result.path("serverInfo").path("version").asString()).isEqualTo("1.2.3");
    assertThat(result.path("capabilities").has("tools")).isTrue();
    assertThat(result.path("capabilities").has("logging")).isTrue();
    assertThat(result.path("capabilities").has("completions")).isTrue();
  }

  @Test
  void aSessionOf2024_11_05IsNotOfferedCompletionsWhichCameLater() {
    Reply reply =
        new McpHttpClient(instance.baseUrl())
            .post(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2024-11-05\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    JsonNode result = reply.json().path("result");
    assertThat(result.path("protocolVersion").asString()).isEqualTo("2024-11-05");
    assertThat(result.path("capabilities").has("completions")).isFalse();
    assertThat(result.path("capabilities").has("tools")).isTrue();
    assertThat(result.path("capabilities").has("logging")).isTrue();
  }

  @Test
  void anUnknownProtocolVersionIsAnsweredWithThePreferredOne() {
    Reply reply =
        new McpHttpClient(instance.baseUrl())
            .post(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"1999-01-01\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    assertThat(reply.json().path("result").path("protocolVersion").asString())
        .isEqualTo("2025-11-25");
  }

  @Test
  void toolsListHasEveryToolSortedWithItsSchemaAndTheSearchTool() {
    JsonNode tools = client.request("tools/list", "{}").path("result").path("tools");
    assertThat(tools.valueStream().map(t -> t.path("name").asString()).toList())
        .containsExactly(
            "broken",
            "get_number",
            "greeting",
            "random_cached",
            "random_fresh",
            "secret",
            "search");
    JsonNode schema = tools.get(1).path("inputSchema");
    assertThat(schema.toString())
        .isEqualTo(
            "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\",\"description\":\"A number\"},"
                + "\"cursor\":{\"type\":\"string\",\"description\":\"To continue a truncated result: its `next_cursor`,"
                + " with the same other inputs. Leave it out for the first page.\"}},\"required\":[\"n\"],\"additionalProperties\":false}");
    assertThat(
            tools
                .get(2)
                .path("inputSchema")
                .path("properties")
                .path("name")
                .path("default")
                .asString())
        .isEqualTo("world");
  }

  @Test
  void aToolCallReturnsTextAndStructuredContent() {
    JsonNode result = client.call("get_number", "{\"n\": \"41\"}").path("result");
    assertThat(result.path("isError").asBoolean()).isFalse();
    assertThat(result.path("content").get(0).path("text").asString())
        .isEqualTo("[{\"n\":41,\"label\":\"text\"}]");
    assertThat(result.path("structuredContent").toString())
        .isEqualTo("{\"rows\":[{\"n\":41,\"label\":\"text\"}]}");
  }

  @Test
  void defaultsAreFilledInAndValuesStayData() {
    assertThat(client.call("greeting", "{}").path("result").path("structuredContent").toString())
        .isEqualTo("{\"rows\":[{\"greeting\":\"Hello world\"}]}");
    assertThat(
            client
                .call("greeting", "{\"name\":\"x' OR 1=1 --\"}")
                .path("result")
                .path("structuredContent")
                .toString())
        .isEqualTo("{\"rows\":[{\"greeting\":\"Hello x' OR 1=1 --\"}]}");
  }

  @Test
  void invalidArgumentsAreAToolErrorTheModelCanFix() {
    JsonNode result = client.call("get_number", "{\"n\": 1.5, \"extra\": true}").path("result");
    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.path("content").get(0).path("text").asString())
        .isEqualTo("invalid arguments: unknown input `extra` (inputs: n); `n` must be an integer");
  }

  @Test
  void aNumberBeyondADoublesRangeIsAParseErrorAndTheServerGoesOn() {
    Reply huge =
        client.post(
            client.requestBody(
                "tools/call", "{\"name\":\"get_number\",\"arguments\":{\"n\":1e400}}"));
    assertThat(huge.status()).isEqualTo(400);
    assertThat(huge.json().path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(huge.json().path("error").path("message").asString())
        .startsWith("Parse error: a number is out of range");

    JsonNode finite = client.call("get_number", "{\"n\": 1e300}").path("result");
    assertThat(finite.path("content").get(0).path("text").asString())
        .isEqualTo("invalid arguments: `n` must be an integer");
    assertThat(
            client.call("get_number", "{\"n\": 4.1e1}").path("result").path("isError").asBoolean())
        .isFalse();
  }

  @Test
  void thousandsOfUnknownInputsAreCountedNotListed() {
    StringBuilder arguments = new StringBuilder("{");
    for (int i = 0; i < 5000; i++) {
      arguments.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":1");
    }
    String text =
        client
            .call("get_number", arguments.append('}').toString())
            .path("result")
            .path("content")
            .get(0)
            .path("text")
            .asString();
    assertThat(text)
        .isEqualTo(
            "invalid arguments: unknown input `k0` (inputs: n); unknown input `k1` (inputs: n);"
                + " unknown input `k2` (inputs: n); unknown input `k3` (inputs: n); unknown input"
                + " `k4` (inputs: n); and 4996 more");
  }

  @Test
  void aStatementTheDatabaseRejectsIsAToolError() {
    JsonNode result = client.call("broken", "{}").path("result");
    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.path("content").get(0).path("text").asString())
        .contains("no such table: no_such_table");
  }

  @Test
  void apiKeyAuthRefusesWithoutTheKeyAndAllowsWithIt() {
    JsonNode refused = client.call("secret", "{}").path("result");
    assertThat(refused.path("isError").asBoolean()).isTrue();
    assertThat(refused.path("content").get(0).path("text").asString())
        .isEqualTo("authentication failed: missing API key: send it in the X-API-Key header");
    Reply wrong =
        client.post(
            client.requestBody("tools/call", "{\"name\":\"secret\",\"arguments\":{}}"),
            "X-API-Key",
            "nope");
    assertThat(wrong.json().path("result").path("content").get(0).path("text").asString())
        .isEqualTo("authentication failed: invalid API key");
    Reply allowed =
        client.post(
            client.requestBody("tools/call", "{\"name\":\"secret\",\"arguments\":{}}"),
            "X-API-Key",
            "s3cret");
    assertThat(allowed.json().path("result").path("structuredContent").toString())
        .isEqualTo("{\"rows\":[{\"answer\":42}]}");
  }

  @Test
  void cachedToolsAnswerFromTheCacheAndOthersDoNot() {
    String first = client.call("random_cached", "{}").path("result").path("content").toString();
    String second = client.call("random_cached", "{}").path("result").path("content").toString();
    assertThat(second).isEqualTo(first);
    String fresh1 = client.call("random_fresh", "{}").path("result").path("content").toString();
    String fresh2 = client.call("random_fresh", "{}").path("result").path("content").toString();
    assertThat(fresh2).isNotEqualTo(fresh1);
  }

  @Test
  void searchRanksByRelevanceAndHonoursTheLimit() {
    JsonNode found =
        client
            .call("search", "{\"query\": \"greet a person\", \"limit\": 2}")
            .path("result")
            .path("structuredContent")
            .path("result");
    assertThat(found.size()).isLessThanOrEqualTo(2);
    assertThat(found.get(0).path("name").asString()).isEqualTo("greeting");
    assertThat(found.get(0).path("score").asInt()).isBetween(1, 100);
    assertThat(found.get(0).path("inputSchema").path("type").asString()).isEqualTo("object");
  }

  @Test
  void aProgressTokenMakesTheReplyAStreamOfNotificationsThenTheResponse() {
    Reply reply =
        client.post(
            client.requestBody(
                "tools/call",
                "{\"name\":\"get_number\",\"arguments\":{\"n\":1},\"_meta\":{\"progressToken\":\"p1\"}}"));
    assertThat(reply.header("Content-Type").orElse("")).startsWith("text/event-stream");
    var events = reply.events();
    assertThat(events.getFirst().path("method").asString()).isEqualTo("notifications/progress");
    assertThat(events.getFirst().path("params").path("progressToken").asString()).isEqualTo("p1");
    assertThat(events.subList(0, events.size() - 1))
        .extracting(e -> e.path("params").path("message").asString())
        .containsExactly("calling get_number", "running get_number", "done");
    assertThat(events.getLast().path("result").path("isError").asBoolean()).isFalse();
  }

  @Test
  void clientNotificationsAndResponsesGet202() {
    assertThat(
            client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").status())
        .isEqualTo(202);
    assertThat(client.post("{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}").status())
        .isEqualTo(202);
  }

  @Test
  void protocolErrorsHaveTheRightCodesAndStatuses() {
    Reply parse = client.post("{not json");
    assertThat(parse.status()).isEqualTo(400);
    assertThat(parse.json().path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(parse.json().path("error").path("message").asString())
        .isEqualTo(
            "Parse error at line 1, column 2: Unexpected character ('n' (code 110)): was"
                + " expecting double-quote to start property name");
    assertThat(parse.json().path("id").isNull()).isTrue();

    Reply invalid = client.post("{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}");
    assertThat(invalid.status()).isEqualTo(400);
    assertThat(invalid.json().path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(invalid.json().path("id").asInt()).isEqualTo(5);

    Reply unknown = client.post(client.requestBody("no/such/method", "{}"));
    assertThat(unknown.status()).isEqualTo(200);
    assertThat(unknown.json().path("error").path("code").asInt()).isEqualTo(-32601);

    assertThat(
            client.request("tools/call", "{\"arguments\":{}}").path("error").path("code").asInt())
        .isEqualTo(-32602);
    JsonNode unknownTool = client.call("nope", "{}").path("error");
    assertThat(unknownTool.path("code").asInt()).isEqualTo(-32602);
    assertThat(unknownTool.path("message").asString()).isEqualTo("Unknown tool: nope");
    JsonNode misspeltTool = client.call("get-number", "{}").path("error");
    assertThat(misspeltTool.path("code").asInt()).isEqualTo(-32602);
    assertThat(misspeltTool.path("message").asString())
        .isEqualTo("Unknown tool: get-number; did you mean `get_number`?");
    assertThat(client.request("ping", "{}").path("result").toString()).isEqualTo("{}");
  }

  @Test
  void oversizedBodiesAreRefused() {
    String big =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\""
            + "a".repeat(5 * 1024 * 1024)
            + "\"}}";
    Reply reply = client.post(big);
    assertThat(reply.status()).isEqualTo(413);
    assertThat(reply.body()).contains("Payload Too Large");
  }

  @Test
  void sessionsAreRequiredAndUnknownOrEndedOnesGet404() {
    McpHttpClient anonymous = new McpHttpClient(instance.baseUrl());
    Reply missing = anonymous.post(anonymous.requestBody("ping", "{}"));
    assertThat(missing.status()).isEqualTo(400);

    anonymous.useSession("forged.session");
    Reply forged = anonymous.post(anonymous.requestBody("ping", "{}"));
    assertThat(forged.status()).isEqualTo(404);
    assertThat(forged.json().path("error").path("code").asInt()).isEqualTo(-32001);

    McpHttpClient ending = new McpHttpClient(instance.baseUrl());
    ending.initialize();
    Reply deleted =
        ending.send(
            HttpRequest.newBuilder(ending.uri())
                .header("Mcp-Session-Id", ending.session().orElseThrow())
                .DELETE()
                .build());
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(ending.post(ending.requestBody("ping", "{}")).status()).isEqualTo(404);
  }

  @Test
  void foreignHostsAndOriginsAreRefusedAndLoopbackOnesAllowedWithCors() {
    assertThat(
            client
                .post(client.requestBody("ping", "{}"), "Origin", "http://evil.example.com")
                .status())
        .isEqualTo(403);
    Reply local = client.post(client.requestBody("ping", "{}"), "Origin", "http://localhost:5173");
    assertThat(local.status()).isEqualTo(200);
    assertThat(local.header("Access-Control-Allow-Origin")).contains("http://localhost:5173");
    Reply preflight =
        client.send(
            HttpRequest.newBuilder(client.uri())
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "http://127.0.0.1:3000")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "mcp-method, mcp-param-region, x-other")
                .build());
    assertThat(preflight.status()).isEqualTo(204);
    assertThat(preflight.header("Access-Control-Allow-Headers").orElse(""))
        .contains("Mcp-Session-Id", "Mcp-Method", "Mcp-Name", "mcp-param-region")
        .doesNotContain("x-other");
  }

  @Test
  void aSessionSurvivesARestartAndServesOnEveryInstanceWithTheSameKey(@TempDir Path other) {
    Map<String, String> key = Map.of("SVC_SESSION_KEY", "shared-key-for-tests");
    String project =
        """
        == .svc
        name: twin
        == app/adapters/db.terse
        connector: sqlite
        connection_string: ":memory:"
        == app/tools/one/config.terse
        description: One.
        use: db
        statement: SELECT 1 AS one
        """;
    String session;
    try (Instance a = RunningProject.start(other.resolve("a"), project, key)) {
      McpHttpClient onA = new McpHttpClient(a.baseUrl());
      onA.initialize();
      session = onA.session().orElseThrow();
    }
    try (Instance restarted = RunningProject.start(other.resolve("a2"), project, key);
        Instance b = RunningProject.start(other.resolve("b"), project, key);
        Instance oldName =
            RunningProject.start(
                other.resolve("c"), project, Map.of("SVC_SESSION_SECRET", "shared-key-for-tests"));
        Instance stranger =
            RunningProject.start(
                other.resolve("d"), project, Map.of("SVC_SESSION_KEY", "another-key"))) {
      for (Instance instance : List.of(restarted, b, oldName)) {
        McpHttpClient client = new McpHttpClient(instance.baseUrl());
        client.useSession(session);
        assertThat(client.call("one", "{}").path("result").path("structuredContent").toString())
            .isEqualTo("{\"rows\":[{\"one\":1}]}");
      }
      McpHttpClient refused = new McpHttpClient(stranger.baseUrl());
      refused.useSession(session);
      assertThat(refused.post(refused.requestBody("tools/list", "{}")).status()).isEqualTo(404);

      // a 2026-07-28 request needs no session anywhere
      for (Instance instance : List.of(b, stranger)) {
        assertThat(
                new StatelessMcpClient(instance.baseUrl())
                    .post("tools/call", "{\"name\":\"one\",\"arguments\":{}}")
                    .json()
                    .path("result")
                    .path("structuredContent")
                    .toString())
            .isEqualTo("{\"rows\":[{\"one\":1}]}");
      }
    }
  }

  @Test
  void afterSetLevelAFailingCallStreamsALogMessage() {
    McpHttpClient logging = new McpHttpClient(instance.baseUrl());
    logging.initialize();
    assertThat(
            logging.request("logging/setLevel", "{\"level\":\"info\"}").path("result").toString())
        .isEqualTo("{}");
    Reply reply =
        logging.post(logging.requestBody("tools/call", "{\"name\":\"broken\",\"arguments\":{}}"));
    assertThat(reply.header("Content-Type").orElse("")).startsWith("text/event-stream");
    assertThat(reply.events().getFirst().path("method").asString())
        .isEqualTo("notifications/message");
    JsonNode log = reply.events().getFirst().path("params");
    assertThat(log.path("logger").asString()).isEqualTo("svc");
    assertThat(log.path("data").isString()).as("data is the message, a string").isTrue();
    assertThat(log.path("data").asString()).startsWith("tool `broken` failed: ");
    assertThat(
            logging
                .request("logging/setLevel", "{\"level\":\"loud\"}")
                .path("error")
                .path("code")
                .asInt())
        .isEqualTo(-32602);
  }

  /**
   * A method /mcp does not serve is 405 with the {@code Allow} header RFC 9110 §15.5.6 requires
   * (the stateless revision's 405 had it; this one did not), so a client or proxy learns what to
   * send instead.
   */
  @Test
  void anotherHttpMethodIs405NamingTheOnesServed() {
    McpHttpClient raw = new McpHttpClient(instance.baseUrl());
    for (String method : List.of("PUT", "PATCH")) {
      Reply reply =
          raw.send(
              HttpRequest.newBuilder(raw.uri())
                  .header("Content-Type", "application/json")
                  .method(method, HttpRequest.BodyPublishers.ofString("{}"))
                  .build());
      assertThat(reply.status()).as(method).isEqualTo(405);
      assertThat(reply.header("Allow")).as(method).contains("POST, GET, DELETE");
      assertThat(reply.json().path("error").path("code").asInt()).isEqualTo(-32600);
    }
  }

  /**
   * svc lists everything in one page and never sends a {@code nextCursor}, so any cursor a client
   * sends is one svc did not issue (forged, tampered, from another server): {@code -32602}, as
   * MCP's pagination asks of an invalid cursor, and without repeating a cursor of a megabyte.
   * Before, every cursor of any type was ignored and the first page came back as if it were the
   * page asked for.
   */
  @Test
  void aCursorSvcNeverIssuedIsInvalidParams() {
    for (String method :
        List.of("tools/list", "prompts/list", "resources/list", "resources/templates/list")) {
      for (String cursor :
          List.of("\"abc\"", "\"\"", "{\"page\":2}", "2", "\"" + "x".repeat(1_000_000) + "\"")) {
        JsonNode reply = client.request(method, "{\"cursor\":" + cursor + "}");
        String shown = method + " " + cursor.substring(0, Math.min(20, cursor.length()));
        assertThat(reply.path("error").path("code").asInt()).as(shown).isEqualTo(-32602);
        assertThat(reply.path("error").path("message").asString())
            .as(shown)
            .startsWith("`cursor`")
            .hasSizeLessThan(300);
      }
      assertThat(client.request(method, "{\"cursor\":null}").has("result")).as(method).isTrue();
    }
  }

  /**
   * MCP's {@code ProgressToken} is a string or a number, and {@code _meta} an object: a token of
   * another type (an object, a boolean, a list) or a {@code _meta} that is not an object is {@code
   * -32602}, and the call does not run. Before, such a token was echoed back in every {@code
   * notifications/progress}, and a {@code _meta} of any type was ignored.
   */
  @Test
  void aProgressTokenThatIsNeitherAStringNorANumberIsInvalidParams() {
    for (String meta :
        List.of(
            "{\"progressToken\":{\"a\":1}}",
            "{\"progressToken\":true}",
            "{\"progressToken\":[1]}",
            "\"x\"",
            "[1]")) {
      for (String method : List.of("tools/call", "tools/list")) {
        JsonNode reply =
            client.request(
                method, "{\"name\":\"get_number\",\"arguments\":{\"n\":1},\"_meta\":" + meta + "}");
        assertThat(reply.path("error").path("code").asInt())
            .as(method + " " + meta)
            .isEqualTo(-32602);
        assertThat(reply.path("error").path("message").asString()).as(meta).contains("_meta");
      }
    }
    for (String token : List.of("\"p\"", "7", "1.5")) {
      Reply reply =
          client.post(
              client.requestBody(
                  "tools/call",
                  "{\"name\":\"get_number\",\"arguments\":{\"n\":1},\"_meta\":{\"progressToken\":"
                      + token
                      + "}}"));
      assertThat(reply.events().getFirst().path("params").path("progressToken").toString())
          .isEqualTo(token);
    }
  }
}
