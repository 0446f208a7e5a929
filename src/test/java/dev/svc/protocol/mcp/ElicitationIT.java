package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Asking the client over a 2025-11-25 session, over real HTTP: a tool's {@code confirm} and a
 * script's {@code mcp.elicit}, {@code mcp.sample} and {@code mcp.listRoots} send their request on
 * the call's SSE stream, the client POSTs the answer, and the call goes on (or not). Hostile
 * answers end the call with a precise error and the server keeps serving.
 */
class ElicitationIT {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir static Path dir;
  static Instance instance;

  @BeforeAll
  static void start() throws SQLException {
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("shop.db"));
        java.sql.Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE visits (name TEXT NOT NULL)");
    }
    instance =
        RunningProject.start(
            dir,
            """
            == .svc
            name: shop
            == app/adapters/lite.terse
            connector: sqlite
            connection_string: "file:./shop.db"
            == app/tools/visit/config.terse
            description: Records a visit.
            use: lite
            statement: INSERT INTO visits (name) VALUES ({{ inputs.name }})
            confirm: "Record a visit by {{ inputs.name }}?"
            timeout: 2
            inputs:
              name: {type: string}
            == app/tools/visit_anyway/config.terse
            description: Records a visit, asking when it can.
            use: lite
            statement: INSERT INTO visits (name) VALUES ({{ inputs.name }})
            confirm: "Record a visit by {{ inputs.name }}?"
            confirm_fallback: allow
            inputs:
              name: {type: string}
            == app/tools/ask_name/config.terse
            description: Asks the user's name.
            handler: handler.ts
            == app/tools/ask_name/handler.ts
            export default async () => {
              const answer = await mcp.elicit({
                message: "Your name?",
                schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
              });
              return { action: answer.action, name: answer.content?.name ?? null };
            };
            == app/tools/ask_two/config.terse
            description: Asks two things at once.
            handler: handler.ts
            == app/tools/ask_two/handler.ts
            export default async () => {
              const schema = { type: "object", properties: {} };
              const [a, b] = await Promise.all([
                mcp.elicit({ message: "first?", schema }),
                mcp.elicit({ message: "second?", schema }),
              ]);
              return [a.action, b.action];
            };
            == app/tools/summarise/config.terse
            description: Asks the client's model.
            handler: handler.ts
            == app/tools/summarise/handler.ts
            export default async () => {
              const result = await mcp.sample({
                messages: [{ role: "user", content: { type: "text", text: "Summarise" } }],
                maxTokens: 50,
              });
              return result.content.text;
            };
            == app/tools/roots/config.terse
            description: Lists the client's roots.
            handler: handler.ts
            == app/tools/roots/handler.ts
            export default async () => (await mcp.listRoots()).roots.map((r) => r.uri);
            == app/tools/plain/config.terse
            description: Asks nothing.
            handler: handler.ts
            == app/tools/plain/handler.ts
            export default () => "plain";
            """);
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  /** A raw client that answers the server's requests on the call's stream as told. */
  static final class AnsweringClient {
    private final HttpClient http = HttpClient.newHttpClient();
    private final McpHttpClient raw = new McpHttpClient(instance.baseUrl());
    private final AtomicInteger ids = new AtomicInteger(100);
    final String session;

    AnsweringClient(String capabilitiesJson) {
      McpHttpClient.Reply reply =
          raw.post(
              "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                  + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
                  + capabilitiesJson
                  + ",\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
      session = reply.header("Mcp-Session-Id").orElseThrow();
      raw.useSession(session);
      raw.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    /** What a call showed: the server's requests on its stream, and its response. */
    record Exchange(List<JsonNode> requests, JsonNode response, String contentType) {
      JsonNode result() {
        return response.path("result");
      }

      boolean isError() {
        return result().path("isError").asBoolean(false);
      }

      String text() {
        return result().path("content").path(0).path("text").asString("");
      }
    }

    /**
     * Calls {@code tool}; each request the server sends is answered with what {@code answer}
     * returns for it (the POSTed JSON bodies, any number, in order).
     */
    Exchange call(
        String tool, String arguments, BiFunction<JsonNode, String, List<String>> answer) {
      int id = ids.incrementAndGet();
      HttpRequest request =
          HttpRequest.newBuilder(raw.uri())
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .header("Mcp-Session-Id", session)
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      "{\"jsonrpc\":\"2.0\",\"id\":"
                          + id
                          + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
                          + tool
                          + "\",\"arguments\":"
                          + arguments
                          + "}}"))
              .build();
      HttpResponse<Stream<String>> response;
      try {
        response = http.send(request, HttpResponse.BodyHandlers.ofLines());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      String type = response.headers().firstValue("Content-Type").orElse("");
      List<JsonNode> asked = new ArrayList<>();
      try (Stream<String> lines = response.body()) {
        if (!type.startsWith("text/event-stream")) {
          return new Exchange(asked, JSON.readTree(String.join("\n", lines.toList())), type);
        }
        Iterator<String> it = lines.iterator();
        while (it.hasNext()) {
          String line = it.next();
          if (!line.startsWith("data:")) {
            continue;
          }
          JsonNode message = JSON.readTree(line.substring(5).strip());
          if (message.has("method") && message.has("id")) {
            asked.add(message);
            for (String body : answer.apply(message, message.get("id").toString())) {
              McpHttpClient.Reply posted = raw.post(body);
              assertThat(posted.status()).as(body).isEqualTo(202);
            }
          } else if (message.path("id").asInt(-1) == id) {
            return new Exchange(asked, message, type);
          }
        }
      }
      throw new AssertionError("the stream ended without a response");
    }
  }

  static List<String> result(String id, String resultJson) {
    return List.of("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + resultJson + "}");
  }

  static BiFunction<JsonNode, String, List<String>> always(String resultJson) {
    return (request, id) -> result(id, resultJson);
  }

  static long visits(String name) throws SQLException {
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("shop.db"));
        ResultSet rows =
            connection
                .createStatement()
                .executeQuery("SELECT count(*) FROM visits WHERE name = '" + name + "'")) {
      rows.next();
      return rows.getLong(1);
    }
  }

  static AnsweringClient eliciting() {
    return new AnsweringClient("{\"elicitation\":{},\"sampling\":{},\"roots\":{}}");
  }

  @Test
  void anAcceptedConfirmationRunsTheToolAfterAskingOnTheCallsStream() throws SQLException {
    AnsweringClient.Exchange exchange =
        eliciting().call("visit", "{\"name\":\"ada\"}", always("{\"action\":\"accept\"}"));

    assertThat(exchange.contentType()).startsWith("text/event-stream");
    assertThat(exchange.requests()).hasSize(1);
    JsonNode asked = exchange.requests().getFirst();
    assertThat(asked.path("method").asString()).isEqualTo("elicitation/create");
    assertThat(asked.path("params").path("message").asString()).isEqualTo("Record a visit by ada?");
    assertThat(asked.path("params").path("requestedSchema").toString())
        .isEqualTo("{\"type\":\"object\",\"properties\":{}}");
    assertThat(exchange.isError()).as(exchange.response().toString()).isFalse();
    assertThat(visits("ada")).isEqualTo(1);
  }

  @Test
  void aDeclinedConfirmationDoesNotRunTheToolAndSaysSo() throws SQLException {
    AnsweringClient.Exchange exchange =
        eliciting().call("visit", "{\"name\":\"bob\"}", always("{\"action\":\"decline\"}"));

    assertThat(exchange.isError()).isTrue();
    assertThat(exchange.text())
        .isEqualTo(
            "the user declined to run tool `visit` (asked: Record a visit by bob?); it did not"
                + " run");
    assertThat(visits("bob")).isZero();
  }

  @Test
  void aCancelledConfirmationDoesNotRunTheTool() throws SQLException {
    AnsweringClient.Exchange exchange =
        eliciting().call("visit", "{\"name\":\"cy\"}", always("{\"action\":\"cancel\"}"));

    assertThat(exchange.isError()).isTrue();
    assertThat(exchange.text()).startsWith("the user cancelled the confirmation of tool `visit`");
    assertThat(visits("cy")).isZero();
  }

  @Test
  void aClientWithoutTheElicitationCapabilityIsRefusedWithTheReason() throws SQLException {
    AnsweringClient.Exchange exchange =
        new AnsweringClient("{}").call("visit", "{\"name\":\"dee\"}", (r, id) -> List.of());

    assertThat(exchange.contentType()).startsWith("application/json"); // nothing to ask on
    assertThat(exchange.isError()).isTrue();
    assertThat(exchange.text())
        .isEqualTo(
            "tool `visit` must be confirmed by the user, but the client did not declare the"
                + " `elicitation` capability (initialize params.capabilities.elicitation); it did"
                + " not run");
    assertThat(visits("dee")).isZero();
  }

  @Test
  void confirmFallbackAllowRunsWithoutAskingAClientThatCannotBeAsked() throws SQLException {
    AnsweringClient.Exchange exchange =
        new AnsweringClient("{\"sampling\":{}}")
            .call("visit_anyway", "{\"name\":\"eve\"}", (r, id) -> List.of());

    assertThat(exchange.requests()).isEmpty();
    assertThat(exchange.isError()).as(exchange.response().toString()).isFalse();
    assertThat(visits("eve")).isEqualTo(1);
  }

  @Test
  void aScriptGetsTheUsersAnswerFromElicit() {
    AnsweringClient.Exchange exchange =
        eliciting()
            .call(
                "ask_name",
                "{}",
                always("{\"action\":\"accept\",\"content\":{\"name\":\"Grace\"}}"));

    assertThat(exchange.requests().getFirst().path("params").path("requestedSchema").toString())
        .isEqualTo(
            "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]}");
    assertThat(exchange.result().path("structuredContent").toString())
        .isEqualTo("{\"action\":\"accept\",\"name\":\"Grace\"}");
  }

  @Test
  void aScriptsTwoQuestionsAtOnceAreBothSentBeforeEitherIsAnswered() {
    List<String> pending = new ArrayList<>();
    AnsweringClient.Exchange exchange =
        eliciting()
            .call(
                "ask_two",
                "{}",
                (request, id) -> {
                  pending.add(id);
                  if (pending.size() < 2) {
                    return List.of(); // answer both once both arrived
                  }
                  List<String> bodies = new ArrayList<>();
                  bodies.addAll(result(pending.get(1), "{\"action\":\"decline\"}"));
                  bodies.addAll(result(pending.get(0), "{\"action\":\"accept\"}"));
                  return bodies;
                });

    assertThat(exchange.requests()).hasSize(2);
    assertThat(exchange.result().path("structuredContent").path("result").toString())
        .isEqualTo("[\"accept\",\"decline\"]");
  }

  @Test
  void aScriptSamplesTheClientsModelAndListsItsRoots() {
    AnsweringClient client = eliciting();
    AnsweringClient.Exchange sampled =
        client.call(
            "summarise",
            "{}",
            always(
                "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"short\"},"
                    + "\"model\":\"m\"}"));
    assertThat(sampled.requests().getFirst().path("method").asString())
        .isEqualTo("sampling/createMessage");
    assertThat(sampled.requests().getFirst().path("params").path("maxTokens").asInt())
        .isEqualTo(50);
    assertThat(sampled.result().path("structuredContent").path("result").asString())
        .isEqualTo("short");

    AnsweringClient.Exchange roots =
        client.call("roots", "{}", always("{\"roots\":[{\"uri\":\"file:///work\"}]}"));
    assertThat(roots.requests().getFirst().path("method").asString()).isEqualTo("roots/list");
    assertThat(roots.result().path("structuredContent").path("result").toString())
        .isEqualTo("[\"file:///work\"]");
  }

  @Test
  void aScriptWhoseClientCannotBeAskedGetsARejectionItMayShow() {
    AnsweringClient.Exchange exchange =
        new AnsweringClient("{\"sampling\":{}}").call("ask_name", "{}", (r, id) -> List.of());

    assertThat(exchange.isError()).isTrue();
    assertThat(exchange.text())
        .isEqualTo(
            "the client did not declare the `elicitation` capability (initialize"
                + " params.capabilities.elicitation)");
  }

  @Test
  void anErrorAnswerFromTheClientEndsTheConfirmationWithItsCodeAndMessage() throws SQLException {
    AnsweringClient.Exchange exchange =
        eliciting()
            .call(
                "visit",
                "{\"name\":\"fay\"}",
                (request, id) ->
                    List.of(
                        "{\"jsonrpc\":\"2.0\",\"id\":"
                            + id
                            + ",\"error\":{\"code\":-32000,\"message\":\"user closed the\\ndialog\"}}"));

    assertThat(exchange.isError()).isTrue();
    assertThat(exchange.text())
        .isEqualTo(
            "tool `visit` must be confirmed by the user, but the client answered"
                + " elicitation/create with error -32000: user closed the dialog; it did not run");
    assertThat(visits("fay")).isZero();
  }

  @Test
  void aMalformedAnswerIsAPreciseError() throws SQLException {
    for (String malformed :
        List.of("{\"action\":\"maybe\"}", "[1]", "{\"action\":\"accept\",\"content\":3}")) {
      AnsweringClient.Exchange exchange =
          eliciting().call("visit", "{\"name\":\"gus\"}", always(malformed));
      assertThat(exchange.isError()).isTrue();
      assertThat(exchange.text())
          .startsWith(
              "tool `visit` must be confirmed by the user, but the client's answer to"
                  + " elicitation/create is malformed: ");
    }
    AnsweringClient.Exchange neither =
        eliciting()
            .call(
                "visit",
                "{\"name\":\"gus\"}",
                (request, id) -> List.of("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":7}"));
    assertThat(neither.text()).contains("has neither a result nor an error");
    assertThat(visits("gus")).isZero();
  }

  @Test
  void answersForUnknownIdsOrFromAnotherSessionAreDroppedAndTheCallWaitsForItsOwn()
      throws SQLException {
    AnsweringClient other = eliciting();
    AnsweringClient client = eliciting();
    AnsweringClient.Exchange exchange =
        client.call(
            "visit",
            "{\"name\":\"hal\"}",
            (request, id) -> {
              // another session answers this id: dropped (202), the call keeps waiting
              McpHttpClient stranger = new McpHttpClient(instance.baseUrl());
              stranger.useSession(other.session);
              assertThat(stranger.post(result(id, "{\"action\":\"accept\"}").getFirst()).status())
                  .isEqualTo(202);
              List<String> bodies = new ArrayList<>();
              bodies.addAll(result("\"svc-nope\"", "{\"action\":\"accept\"}"));
              bodies.addAll(result("12345", "{\"action\":\"accept\"}"));
              bodies.addAll(result(id, "{\"action\":\"decline\"}"));
              return bodies;
            });

    assertThat(exchange.text()).startsWith("the user declined");
    assertThat(visits("hal")).isZero();
  }

  @Test
  void aClientThatNeverAnswersMeetsTheToolsDeadlineAndTheServerKeepsServing() throws SQLException {
    AnsweringClient client = eliciting();
    long started = System.nanoTime();
    AnsweringClient.Exchange exchange =
        client.call("visit", "{\"name\":\"ivy\"}", (r, id) -> List.of());

    assertThat((System.nanoTime() - started) / 1_000_000).isBetween(1_500L, 10_000L);
    assertThat(exchange.text())
        .isEqualTo(
            "the user did not answer the confirmation of tool `visit` within its timeout (2 s);"
                + " it did not run");
    assertThat(visits("ivy")).isZero();

    AnsweringClient.Exchange after = client.call("plain", "{}", (r, id) -> List.of());
    assertThat(after.isError()).isFalse();
    assertThat(after.result().path("structuredContent").path("result").asString())
        .isEqualTo("plain");
  }
}
