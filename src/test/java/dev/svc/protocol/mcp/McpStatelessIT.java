package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.McpHttpClient.Reply;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** MCP 2026-07-28 on the same {@code /mcp} as the session revisions, over a real server. */
class McpStatelessIT {
  @TempDir static Path dir;
  static Instance instance;
  static StatelessMcpClient client;

  @BeforeAll
  static void start() {
    instance =
        RunningProject.start(
            dir,
            """
            == .svc
            name: shop
            version: "1.2.3"
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/get_number/config.terse
            description: Echo a number as a row.
            use: db
            statement: SELECT {{ inputs.n }} AS n
            inputs:
              n: {type: int, description: A number}
            == app/tools/regional/config.terse
            description: Echoes its region and count.
            use: db
            statement: SELECT {{ inputs.region }} AS region, {{ inputs.count }} AS count
            inputs:
              region: {type: string, header: Region}
              count: {type: int, header: Count, required: false}
            == app/tools/chatty/config.terse
            description: Logs while it works.
            handler: handler.ts
            == app/tools/chatty/handler.ts
            export default async () => {
              console.info("working on it");
              return "done";
            };
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
            == app/prompts/readpage.terse
            arguments:
              p: {required: true}
            messages:
              - role: user
                resource: "docs://{{ p }}"
            """);
    client = new StatelessMcpClient(instance.baseUrl());
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  @Test
  void discoverNamesEveryRevisionTheCapabilitiesAndTheServerWithCacheHints() {
    Reply reply = client.post("server/discover", "{}");

    assertThat(reply.status()).isEqualTo(200);
    JsonNode result = reply.json().path("result");
    assertThat(result.path("supportedVersions").toString())
        .isEqualTo("[\"2026-07-28\",\"2025-11-25\",\"2025-06-18\",\"2025-03-26\",\"2024-11-05\"]");
    assertThat(result.path("capabilities").has("tools")).isTrue();
    assertThat(result.path("capabilities").has("prompts")).isTrue();
    assertThat(result.path("capabilities").has("resources")).isTrue();
    assertThat(result.path("capabilities").has("completions")).isTrue();
    assertThat(result.path("resultType").asString()).isEqualTo("complete");
    assertThat(result.path("_meta").path("io.modelcontextprotocol/serverInfo").toString())
        .isEqualTo("{\"name\":\"shop\",\"version\":\"1.2.3\"}");
    assertThat(result.path("ttlMs").asLong()).isEqualTo(3_600_000);
    assertThat(result.path("cacheScope").asString()).isEqualTo("public");
    assertThat(reply.header("Mcp-Session-Id")).isEmpty();
  }

  @Test
  void aRequestWithoutItsMetaOrItsRequiredKeysGets400AndInvalidParamsWithItsId() {
    ObjectNode noVersion = StatelessMcpClient.meta();
    noVersion.remove("io.modelcontextprotocol/protocolVersion");
    ObjectNode noCapabilities = StatelessMcpClient.meta();
    noCapabilities.remove("io.modelcontextprotocol/clientCapabilities");
    ObjectNode badLevel = StatelessMcpClient.meta();
    badLevel.put("io.modelcontextprotocol/logLevel", "loud");
    for (String params :
        List.of(
            "{}",
            "{\"_meta\":" + noVersion + "}",
            "{\"_meta\":" + noCapabilities + "}",
            "{\"_meta\":" + badLevel + "}")) {
      Reply reply =
          client.postRaw(
              "{\"jsonrpc\":\"2.0\",\"id\":\"probe\",\"method\":\"tools/list\",\"params\":"
                  + params
                  + "}",
              "MCP-Protocol-Version",
              "2026-07-28",
              "Mcp-Method",
              "tools/list");

      assertThat(reply.status()).as(params).isEqualTo(400);
      assertThat(reply.json().path("error").path("code").asInt()).as(params).isEqualTo(-32602);
      assertThat(reply.json().path("id").asString()).isEqualTo("probe");
    }
  }

  /** A progress token that is neither a string nor a number is a malformed {@code _meta}. */
  @Test
  void aProgressTokenOfAnotherTypeIs400InvalidParams() {
    ObjectNode meta = StatelessMcpClient.meta();
    meta.putObject("progressToken").put("a", 1);

    Reply reply = client.post("tools/list", "{\"_meta\":" + meta + "}");

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().path("error").path("code").asInt()).isEqualTo(-32602);
  }

  /** A cursor svc never issued is {@code -32602} under 2026-07-28 too (svc sends no nextCursor). */
  @Test
  void aCursorSvcNeverIssuedIsInvalidParams() {
    Reply reply = client.post("tools/list", "{\"cursor\":\"eyJvZmZzZXQiOjEwfQ==\"}");

    assertThat(reply.json().path("error").path("code").asInt()).isEqualTo(-32602);
  }

  @Test
  void aRequestWithoutClientInfoIsServed() {
    ObjectNode meta = StatelessMcpClient.meta();
    meta.remove("io.modelcontextprotocol/clientInfo");

    Reply reply = client.post("tools/list", "{\"_meta\":" + meta + "}");

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.json().path("result").path("tools").size()).isEqualTo(4);
  }

  @Test
  void anUnknownRevisionGets400WithTheRevisionsSvcServesAndTheOneAskedFor() {
    for (String version : List.of("v999.0.0", "2025-11-25")) {
      ObjectNode meta = StatelessMcpClient.meta();
      meta.put("io.modelcontextprotocol/protocolVersion", version);

      Reply reply = client.post("server/discover", "{\"_meta\":" + meta + "}");

      assertThat(reply.status()).isEqualTo(400);
      JsonNode error = reply.json().path("error");
      assertThat(error.path("code").asInt()).isEqualTo(-32022);
      assertThat(error.path("data").path("requested").asString()).isEqualTo(version);
      assertThat(error.path("data").path("supported").toString()).contains("\"2026-07-28\"");
    }
    // only the header naming a revision svc does not know, no _meta, no session: the revision is
    // what is wrong, not the missing session id
    Reply headerOnly =
        client.postRaw(
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}",
            "MCP-Protocol-Version",
            "2099-01-01");
    assertThat(headerOnly.status()).isEqualTo(400);
    assertThat(headerOnly.json().path("error").path("message").asString())
        .contains("unsupported MCP-Protocol-Version 2099-01-01; supported: ")
        .contains("2026-07-28");
  }

  @Test
  void headersThatDoNotMirrorTheBodyGet400HeaderMismatch() {
    String call = "{\"name\":\"get_number\",\"arguments\":{\"n\":1}}";
    List<String[]> wrong =
        List.of(
            new String[] {"MCP-Protocol-Version", "2025-11-25"},
            new String[] {"Mcp-Method", "tools/list"},
            new String[] {"Mcp-Name", "chatty"},
            new String[] {"Mcp-Name", "=?base64?not base64!?="},
            new String[] {"Mcp-Name", "=?base64?" + base64("chatty") + "?="});
    for (String[] header : wrong) {
      Reply reply = client.post("tools/call", call, header);

      assertThat(reply.status()).as(String.join(": ", header)).isEqualTo(400);
      assertThat(reply.json().path("error").path("code").asInt()).isEqualTo(-32020);
    }
    ObjectNode params = StatelessMcpClient.params(call);
    String body = client.body("tools/call", params);
    assertThat(
            client
                .postRaw(body, "MCP-Protocol-Version", "2026-07-28", "Mcp-Name", "get_number")
                .json()
                .path("error")
                .path("message")
                .asString())
        .contains("Mcp-Method header is required");
    assertThat(
            client
                .postRaw(body, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call")
                .json()
                .path("error")
                .path("message")
                .asString())
        .contains("Mcp-Name header is required");
    assertThat(
            client
                .postRaw(body, "Mcp-Method", "tools/call", "Mcp-Name", "get_number")
                .json()
                .path("error")
                .path("code")
                .asInt())
        .isEqualTo(-32020);
  }

  @Test
  void headerValuesMayBeBase64EncodedOrCarrySurroundingSpaces() {
    String call = "{\"name\":\"get_number\",\"arguments\":{\"n\":7}}";

    Reply encoded =
        client.post("tools/call", call, "Mcp-Name", "=?base64?" + base64("get_number") + "?=");
    Reply spaced = client.post("tools/call", call, "Mcp-Name", "  get_number  ");

    assertThat(encoded.status()).isEqualTo(200);
    assertThat(encoded.json().path("result").path("isError").asBoolean()).isFalse();
    assertThat(spaced.status()).isEqualTo(200);
    assertThat(spaced.json().path("result").path("structuredContent").toString())
        .isEqualTo("{\"rows\":[{\"n\":7}]}");
  }

  @Test
  void anArgumentMarkedForAHeaderMustBeMirroredInItsMcpParamHeader() {
    String call = "{\"name\":\"regional\",\"arguments\":{\"region\":\"eu-west\",\"count\":7}}";

    assertThat(
            client
                .post("tools/call", call, "Mcp-Param-Region", "eu-west", "Mcp-Param-Count", "7")
                .status())
        .isEqualTo(200);
    assertThat(
            client
                .post(
                    "tools/call",
                    call,
                    "mcp-param-region",
                    "=?base64?" + base64("eu-west") + "?=",
                    "Mcp-Param-Count",
                    "007")
                .json()
                .path("result")
                .path("structuredContent")
                .toString())
        .isEqualTo("{\"rows\":[{\"region\":\"eu-west\",\"count\":7}]}");
    for (String[] wrong :
        List.of(
            new String[] {"Mcp-Param-Count", "7"},
            new String[] {"Mcp-Param-Region", "us-east", "Mcp-Param-Count", "7"},
            new String[] {"Mcp-Param-Region", "eu-west", "Mcp-Param-Count", "8"},
            new String[] {"Mcp-Param-Region", "=?base64?ZXUtd2VzdA?=", "Mcp-Param-Count", "7"})) {
      Reply reply = client.post("tools/call", call, wrong);

      assertThat(reply.status()).as(String.join(" ", wrong)).isEqualTo(400);
      assertThat(reply.json().path("error").path("code").asInt()).isEqualTo(-32020);
    }
    // an argument without a value needs no header
    assertThat(
            client
                .post(
                    "tools/call",
                    "{\"name\":\"regional\",\"arguments\":{\"region\":\"eu\"}}",
                    "Mcp-Param-Region",
                    "eu")
                .status())
        .isEqualTo(200);
  }

  @Test
  void aMirrorHeaderSentTwiceIsAMismatchWhicheverCopyMatches() throws Exception {
    // RFC 9110 §5.3: repeated field lines are one value, "a, b"; a gateway may route on either
    String call = "{\"name\":\"regional\",\"arguments\":{\"region\":\"eu\"}}";
    ObjectNode params = StatelessMcpClient.params(call);
    String body = client.body("tools/call", params);
    for (String[] twice :
        List.of(
            new String[] {"Mcp-Name", "regional", "get_number"},
            new String[] {"Mcp-Method", "tools/call", "tools/list"},
            new String[] {"MCP-Protocol-Version", "2026-07-28", "2025-11-25"},
            new String[] {"Mcp-Param-Region", "eu", "us"},
            new String[] {"Mcp-Param-Region", "eu", "eu"})) {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(instance.baseUrl() + "/mcp"))
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .POST(HttpRequest.BodyPublishers.ofString(body));
      String[] standard = StatelessMcpClient.standardHeaders("tools/call", params);
      for (int i = 0; i + 1 < standard.length; i += 2) {
        if (!standard[i].equalsIgnoreCase(twice[0])) {
          request.header(standard[i], standard[i + 1]);
        }
      }
      if (!twice[0].startsWith("Mcp-Param")) {
        request.header("Mcp-Param-Region", "eu");
      }
      request.header(twice[0], twice[1]).header(twice[0], twice[2]);
      HttpResponse<String> reply;
      try (HttpClient http = HttpClient.newHttpClient()) {
        reply = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      }

      assertThat(reply.statusCode()).as(String.join(" ", twice)).isEqualTo(400);
      assertThat(reply.body())
          .as(String.join(" ", twice))
          .contains("-32020")
          .contains(twice[0] + " is sent 2 times; send it once");
    }
  }

  @Test
  void aNumberInAParamHeaderIsComparedAsANumber() {
    String call = "{\"name\":\"regional\",\"arguments\":{\"region\":\"eu\",\"count\":5}}";
    for (String same : List.of("5", "5.0", "+5", "005", "5e0", "0.5E1")) {
      assertThat(
              client
                  .post("tools/call", call, "Mcp-Param-Region", "eu", "Mcp-Param-Count", same)
                  .status())
          .as(same)
          .isEqualTo(200);
    }
    for (String other : List.of("5.1", "6", "five", "5e99999", "0x5", "5" + "0".repeat(200))) {
      assertThat(
              client
                  .post("tools/call", call, "Mcp-Param-Region", "eu", "Mcp-Param-Count", other)
                  .json()
                  .path("error")
                  .path("code")
                  .asInt())
          .as(other)
          .isEqualTo(-32020);
    }
  }

  @Test
  void aPromptEmbeddingAnUnknownResourceGetsTheErrorResourcesReadGives() {
    Reply read = client.post("resources/read", "{\"uri\":\"docs://nonexist\"}");
    Reply prompt =
        client.post("prompts/get", "{\"name\":\"readpage\",\"arguments\":{\"p\":\"nonexist\"}}");
    assertThat(read.json().path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(prompt.json().path("error").path("code").asInt())
        .as(prompt.json().toString())
        .isEqualTo(-32602);
    assertThat(prompt.json().path("error").path("data").path("uri").asString())
        .isEqualTo("docs://nonexist");
  }

  @Test
  void removedAndUnknownMethodsGet404MethodNotFoundWithTheirId() {
    for (String method :
        List.of(
            "initialize",
            "ping",
            "logging/setLevel",
            "resources/subscribe",
            "resources/unsubscribe",
            "unknown/method")) {
      Reply reply = client.post(method, "{}");

      assertThat(reply.status()).as(method).isEqualTo(404);
      assertThat(reply.json().path("error").path("code").asInt()).isEqualTo(-32601);
      assertThat(reply.json().path("id").isIntegralNumber()).isTrue();
    }
  }

  @Test
  void everyResultIsCompleteAndNamesTheServerAndCacheableOnesCarryCacheHints() {
    for (String method :
        List.of("tools/list", "prompts/list", "resources/list", "resources/templates/list")) {
      JsonNode result = client.post(method, "{}").json().path("result");

      assertThat(result.path("resultType").asString()).as(method).isEqualTo("complete");
      assertThat(result.path("_meta").has("io.modelcontextprotocol/serverInfo")).isTrue();
      assertThat(result.path("ttlMs").asLong()).as(method).isEqualTo(300_000);
      assertThat(result.path("cacheScope").asString()).as(method).isEqualTo("public");
    }
    JsonNode read = client.post("resources/read", "{\"uri\":\"docs://doc\"}").json();
    assertThat(read.path("result").path("contents").get(0).path("text").asString())
        .isEqualTo("the doc\n");
    assertThat(read.path("result").path("ttlMs").asLong()).isZero();
    assertThat(read.path("result").path("cacheScope").asString()).isEqualTo("private");

    JsonNode call =
        client
            .post("tools/call", "{\"name\":\"get_number\",\"arguments\":{\"n\":3}}")
            .json()
            .path("result");
    assertThat(call.path("resultType").asString()).isEqualTo("complete");
    assertThat(call.has("ttlMs")).isFalse();
    JsonNode prompt = client.post("prompts/get", "{\"name\":\"hello\"}").json().path("result");
    assertThat(prompt.path("resultType").asString()).isEqualTo("complete");
    assertThat(prompt.path("messages").size()).isEqualTo(1);
  }

  @Test
  void toolsAreListedInTheSameOrderEveryTime() {
    List<String> first = names(client.post("tools/list", "{}").json());
    List<String> second = names(client.post("tools/list", "{}").json());

    assertThat(first)
        .containsExactly("chatty", "get_number", "regional", "search")
        .isEqualTo(second);
  }

  @Test
  void aResourceThatDoesNotExistIsInvalidParamsNamingItsUri() {
    Reply reply = client.post("resources/read", "{\"uri\":\"docs://missing\"}");

    JsonNode error = reply.json().path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32602);
    assertThat(error.path("data").path("uri").asString()).isEqualTo("docs://missing");
    assertThat(reply.json().has("result")).isFalse();
  }

  @Test
  void logNotificationsGoOnlyToRequestsThatAskedForALevel() {
    Reply silent = client.post("tools/call", "{\"name\":\"chatty\",\"arguments\":{}}");
    assertThat(silent.header("Content-Type").orElse("")).startsWith("application/json");
    assertThat(silent.body()).doesNotContain("notifications/message");

    ObjectNode meta = StatelessMcpClient.meta();
    meta.put("io.modelcontextprotocol/logLevel", "info");
    Reply logged =
        client.post("tools/call", "{\"name\":\"chatty\",\"arguments\":{},\"_meta\":" + meta + "}");

    assertThat(logged.header("Content-Type").orElse("")).startsWith("text/event-stream");
    List<JsonNode> events = logged.events();
    assertThat(events.getFirst().path("method").asString()).isEqualTo("notifications/message");
    assertThat(events.getFirst().path("params").path("data").asString()).isEqualTo("working on it");
    assertThat(events.getLast().path("result").path("resultType").asString()).isEqualTo("complete");

    meta.put("io.modelcontextprotocol/logLevel", "error");
    Reply quieter =
        client.post("tools/call", "{\"name\":\"chatty\",\"arguments\":{},\"_meta\":" + meta + "}");
    assertThat(quieter.body()).doesNotContain("notifications/message");
  }

  @Test
  void aProgressTokenGetsProgressNotificationsOnTheRequestsStream() {
    ObjectNode meta = StatelessMcpClient.meta();
    meta.put("progressToken", "p-1");

    Reply reply =
        client.post(
            "tools/call",
            "{\"name\":\"get_number\",\"arguments\":{\"n\":1},\"_meta\":" + meta + "}");

    List<JsonNode> events = reply.events();
    assertThat(events.getFirst().path("method").asString()).isEqualTo("notifications/progress");
    assertThat(events.getFirst().path("params").path("progressToken").asString()).isEqualTo("p-1");
    assertThat(events.getLast().path("result").path("isError").asBoolean()).isFalse();
  }

  @Test
  void aSessionHeaderIsIgnoredAndNoSessionIsMinted() {
    Reply reply = client.post("tools/list", "{}", "Mcp-Session-Id", "forged-or-stale");

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.header("Mcp-Session-Id")).isEmpty();
  }

  @Test
  void getAndDeleteUnderTheStatelessRevisionAre405() {
    McpHttpClient raw = new McpHttpClient(instance.baseUrl());
    for (String method : List.of("GET", "DELETE")) {
      Reply reply =
          raw.send(
              HttpRequest.newBuilder(URI.create(instance.baseUrl() + "/mcp"))
                  .header("Accept", "text/event-stream")
                  .header("MCP-Protocol-Version", "2026-07-28")
                  .method(method, HttpRequest.BodyPublishers.noBody())
                  .build());

      assertThat(reply.status()).as(method).isEqualTo(405);
      assertThat(reply.header("Allow")).contains("POST");
    }
  }

  @Test
  void aNotificationIsAccepted() {
    Reply reply =
        client.postRaw(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1,\"_meta\":"
                + StatelessMcpClient.meta()
                + "}}",
            "MCP-Protocol-Version",
            "2026-07-28",
            "Mcp-Method",
            "notifications/cancelled");

    assertThat(reply.status()).isEqualTo(202);
  }

  @Test
  void aResponseHasNoServerRequestToAnswerAndIsRefused() {
    Reply reply =
        client.postRaw(
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", "MCP-Protocol-Version", "2026-07-28");

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(reply.json().path("error").path("message").asString())
        .contains("MCP 2026-07-28 has no server requests");
  }

  @Test
  void aToolFailureOrAnUnknownToolIsAnAnswerNotATransportError() {
    Reply unknown = client.post("tools/call", "{\"name\":\"nope\",\"arguments\":{}}");
    Reply invalid = client.post("tools/call", "{\"name\":\"get_number\",\"arguments\":{}}");

    assertThat(unknown.status()).isEqualTo(200);
    assertThat(unknown.json().path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(invalid.status()).isEqualTo(200);
    assertThat(invalid.json().path("result").path("isError").asBoolean()).isTrue();
    assertThat(invalid.json().path("result").path("resultType").asString()).isEqualTo("complete");
  }

  @Test
  void aListenStreamOpensWithItsAcknowledgementTaggedWithItsSubscriptionId() throws Exception {
    BlockingQueue<String> lines =
        client.listen(
            "{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"docs://doc\"],\"unknownKind\":true}");

    assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo("status: 200");
    JsonNode ack = firstEvent(lines);
    assertThat(ack.path("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
    assertThat(ack.path("params").path("notifications").toString())
        .isEqualTo("{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"docs://doc\"]}");
    assertThat(
            ack.path("params").path("_meta").path("io.modelcontextprotocol/subscriptionId").isInt())
        .isTrue();
  }

  @Test
  void aListenRequestThatCannotBeStreamedOrIsMalformedIsRefused() {
    ObjectNode params = StatelessMcpClient.params("{\"notifications\":{}}");
    Reply jsonOnly =
        client.postRaw(
            client.body("subscriptions/listen", params),
            merge(
                StatelessMcpClient.standardHeaders("subscriptions/listen", params),
                "Accept",
                "application/json"));
    Reply malformed =
        client.post("subscriptions/listen", "{\"notifications\":{\"toolsListChanged\":\"yes\"}}");

    Reply longUri =
        client.post(
            "subscriptions/listen",
            "{\"notifications\":{\"resourceSubscriptions\":[\"docs://"
                + "x".repeat(3000)
                + "\"]}}");

    assertThat(jsonOnly.status()).isEqualTo(406);
    assertThat(malformed.status()).isEqualTo(400);
    assertThat(malformed.json().path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(longUri.status()).isEqualTo(400);
    assertThat(longUri.json().path("error").path("message").asString())
        .isEqualTo(
            "`notifications.resourceSubscriptions` holds a URI of 3007 characters; at most 2048");
  }

  @Test
  void theSessionRevisionsStillWorkBesideIt() {
    McpHttpClient legacy = new McpHttpClient(instance.baseUrl());
    Reply init = legacy.initialize();

    assertThat(init.json().path("result").path("protocolVersion").asString())
        .isEqualTo("2025-11-25");
    assertThat(legacy.session()).isPresent();
    assertThat(legacy.request("ping", "{}").path("result").isObject()).isTrue();
    assertThat(legacy.request("tools/list", "{}").path("result").has("resultType")).isFalse();
  }

  private static JsonNode firstEvent(BlockingQueue<String> lines) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    List<String> seen = new ArrayList<>();
    while (System.nanoTime() < end) {
      String line = lines.poll(200, TimeUnit.MILLISECONDS);
      if (line == null) {
        continue;
      }
      seen.add(line);
      if (line.startsWith("data:")) {
        return tools.jackson.databind.json.JsonMapper.builder()
            .build()
            .readTree(line.substring(5).strip());
      }
    }
    throw new AssertionError("no event on the stream; saw " + seen);
  }

  private static List<String> names(JsonNode response) {
    List<String> names = new ArrayList<>();
    response.path("result").path("tools").forEach(t -> names.add(t.path("name").asString()));
    return names;
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String[] merge(String[] headers, String... more) {
    List<String> all = new ArrayList<>(List.of(headers));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }
}
