package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.json.Json;
import dev.svc.model.Model;
import dev.svc.testing.InteropProject;
import dev.svc.testing.NodeMcpClients;
import dev.svc.testing.NodeMcpClients.Flavour;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.RunningProject;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The official MCP TypeScript clients ({@code @modelcontextprotocol/sdk} 1.x and {@code
 * {@literal @}modelcontextprotocol/client} 2.x in each negotiation mode) use every feature svc
 * serves, unmodified: tools, a failing tool, logs at a level, progress, resources, prompts and
 * completion. The script prints what each step got; {@link #assertEveryFeatureWorks} reads it.
 */
class McpNodeClientsIT {
  @TempDir static Path dir;
  static Instance instance;
  static NodeMcpClients clients;

  @BeforeAll
  static void start() {
    clients = NodeMcpClients.install();
    instance = RunningProject.start(dir, InteropProject.FILES);
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  JsonNode run(Flavour flavour) {
    JsonNode report = clients.run(flavour, instance.baseUrl() + "/mcp");
    System.out.println(flavour + ": " + report);
    return report;
  }

  @Test
  void theVersionOneSdkUsesEveryFeatureInA20251125Session() {
    JsonNode report = run(Flavour.SDK1);

    assertThat(report.path("connect").path("protocolVersion").asString()).isEqualTo("2025-11-25");
    assertEveryFeatureWorks(report);
    assertThat(report.path("missingResource").path("code").asInt()).isEqualTo(-32002);
    assertRefusedWithoutTheElicitationCapability(report);
    assertThat(requests(report)).first().isEqualTo("POST initialize");
  }

  @Test
  void theVersionTwoClientInLegacyModeUsesEveryFeatureWithoutProbing() {
    JsonNode report = run(Flavour.LEGACY);

    assertThat(report.path("connect").path("era").asString()).isEqualTo("legacy");
    assertThat(report.path("connect").path("protocolVersion").asString()).isEqualTo("2025-11-25");
    assertEveryFeatureWorks(report);
    assertThat(requests(report)).doesNotContain("POST server/discover");
    assertRefusedWithoutTheElicitationCapability(report);
  }

  @Test
  void theVersionTwoClientInAutoModeDiscoversTheNewRevisionAndUsesEveryFeatureStatelessly() {
    JsonNode report = run(Flavour.AUTO);

    assertModernEra(report);
    assertEveryFeatureWorks(report);
    assertThat(requests(report)).first().isEqualTo("POST server/discover");
  }

  @Test
  void theVersionTwoClientPinnedTo20260728UsesEveryFeatureStatelessly() {
    JsonNode report = run(Flavour.PIN);

    assertModernEra(report);
    assertEveryFeatureWorks(report);
  }

  @Test
  void aPinnedClientListeningForChangesHearsOfAReloadAndOfTheServerStopping(@TempDir Path project) {
    JsonNode heard = listenThroughAReload(project, Flavour.PIN);

    assertThat(heard.path("listening").path("honored").toString())
        .isEqualTo("{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"docs://guide\"]}");
    assertThat(heard.path("heard").path("seen").toString())
        .isEqualTo("[\"notifications/resources/updated\",\"notifications/tools/list_changed\"]");
    assertThat(heard.path("notifications").valueStream())
        .allSatisfy(n ->
            assertThat(
                    n.path("params")
                        .path("_meta")
                        .path("io.modelcontextprotocol/subscriptionId")
                        .isMissingNode())
                .as("tagged with the subscription: " + n)
                .isFalse());
    assertThat(heard.path("done").path("closed").asString())
        .as("svc stopping answers the listen request before it closes the stream")
        .isEqualTo("graceful");
  }

  @Test
  void aLegacyClientSubscribedToAResourceHearsOfAReloadOnItsSessionStream(@TempDir Path project) {
    JsonNode heard = listenThroughAReload(project, Flavour.LEGACY);

    assertThat(heard.path("listening").path("getStreamOpen").asBoolean()).isTrue();
    assertThat(heard.path("heard").path("seen").toString())
        .isEqualTo("[\"notifications/resources/updated\",\"notifications/tools/list_changed\"]");
  }

  /**
   * Starts {@link InteropProject} in {@code project}, lets the {@code flavour} client listen,
   * reloads the project with one more tool and a changed {@code docs://guide}, then (for a 2026
   * client) stops svc, and returns what the client printed: its {@code listening}, {@code heard}
   * and {@code done} lines and the {@code notifications}.
   */
  static JsonNode listenThroughAReload(Path project, Flavour flavour) {
    ObjectNode heard = Json.NODES.objectNode();
    ArrayNode notifications = heard.putArray("notifications");
    Instance served = RunningProject.start(project, InteropProject.FILES);
    boolean stopped = false;
    try (NodeMcpClients.Lines client = clients.listen(flavour, served.baseUrl() + "/mcp")) {
      JsonNode listening = client.next();
      assertThat(listening.path("event").asString())
          .as(listening.toString())
          .isEqualTo("listening");
      heard.set("listening", listening);
      Model changed =
          ProjectFixture.model(
              project,
              """
              == app/tools/double/config.terse
              description: Doubles a number.
              use: db
              statement: SELECT {{ inputs.n }} * 2 AS doubled
              inputs:
                n: {type: int}
              == app/resources/guide/guide.md
              # Guide, second edition
              """);
      served.reload(
          changed, Set.of("app/tools/double/config.terse", "app/resources/guide/guide.md"));
      for (JsonNode line = client.next(); ; line = client.next()) {
        String event = line.path("event").asString();
        if (event.equals("notification")) {
          notifications.add(line);
          continue;
        }
        heard.set(event, line);
        if (event.equals("done")) {
          break;
        }
        if (event.equals("heard") && flavour == Flavour.PIN) {
          served.close();
          stopped = true;
        }
      }
    } finally {
      if (!stopped) {
        served.close();
      }
    }
    System.out.println(flavour + " heard: " + heard);
    return heard;
  }

  /** A 2026-07-28 client: no handshake, no session, no GET stream, and the revision's codes. */
  static void assertModernEra(JsonNode report) {
    JsonNode connect = report.path("connect");
    assertThat(connect.path("era").asString()).as(report.toString()).isEqualTo("modern");
    assertThat(connect.path("protocolVersion").asString()).isEqualTo("2026-07-28");
    assertThat(requests(report))
        .doesNotContain("POST initialize", "POST notifications/initialized", "GET", "DELETE");
    assertThat(report.path("wire").valueStream().filter(w -> !w.path("session").isNull()))
        .as("no reply names a session")
        .isEmpty();
    assertThat(
            report
                .path("wire")
                .valueStream()
                .filter(w -> w.path("headers").path("mcp-name").asString("").equals("in_region"))
                .map(w ->
                    w.path("headers").path("mcp-param-region").asString()
                        + " "
                        + w.path("headers").path("mcp-param-zone").asString())
                .toList())
        .as("the inputs declared with header: travel as Mcp-Param-* headers too")
        .containsExactly("us-west1 3", "=?base64?WsO8cmljaA==?= 3");
    JsonNode refused = report.path("confirm").path("cannotBeAsked");
    assertThat(refused.path("code").asInt())
        .as("a client that cannot be asked gets -32021: " + refused)
        .isEqualTo(-32021);
    assertThat(refused.path("error").asString()).contains("elicitation");
    // the 2.x client reports a legacy -32002 as -32602 too, so the reply itself is read
    assertThat(
            report
                .path("wire")
                .valueStream()
                .filter(w -> w.path("request").asString().equals("POST resources/read"))
                .map(w -> w.path("body").asString())
                .toList())
        .as("resource not found is -32602 on 2026-07-28")
        .last()
        .asString()
        .contains("\"code\":-32602");
  }

  /** On a session revision, a tool that must be confirmed tells a client that cannot be asked. */
  static void assertRefusedWithoutTheElicitationCapability(JsonNode report) {
    JsonNode refused = report.path("confirm").path("cannotBeAsked");
    assertThat(refused.path("isError").asBoolean()).as(refused.toString()).isTrue();
    assertThat(refused.path("text").asString())
        .startsWith(
            "tool `forget` must be confirmed by the user, but the client did not declare the"
                + " `elicitation` capability");
  }

  /** The requests the client posted, as {@code "POST method"}, in order. */
  static List<String> requests(JsonNode report) {
    return report.path("wire").valueStream().map(w -> w.path("request").asString()).toList();
  }

  /** What every client, on either revision, gets from {@link InteropProject}. */
  static void assertEveryFeatureWorks(JsonNode report) {
    assertThat(report.path("connect").path("server").asString())
        .as(report.path("connect").toString())
        .isEqualTo("interop");
    assertThat(report.path("tools").valueStream().map(JsonNode::asString))
        .as("tools/list in a deterministic order")
        .containsExactly(
            "add", "broken", "forget", "greet", "in_region", "rename", "secret", "search");

    JsonNode add = report.path("add");
    assertThat(add.path("isError").asBoolean()).as(add.toString()).isFalse();
    assertThat(add.path("text").asString()).isEqualTo("[{\"sum\":42}]");
    assertThat(add.path("structured").toString()).isEqualTo("{\"rows\":[{\"sum\":42}]}");

    JsonNode broken = report.path("broken");
    assertThat(broken.path("isError").asBoolean()).as(broken.toString()).isTrue();
    assertThat(broken.path("text").asString()).isEqualTo("no such table: missing_table");
    assertThat(report.path("unknownTool").path("code").asInt())
        .as(report.path("unknownTool").toString())
        .isEqualTo(-32602);

    assertThat(report.path("inRegion").valueStream().map(r -> r.path("structured").toString()))
        .as(
            "values a 2026 client also sends as headers, plain or base64: "
                + report.path("inRegion"))
        .containsExactly(
            "{\"rows\":[{\"region\":\"us-west1\",\"zone\":3}]}",
            "{\"rows\":[{\"region\":\"Zürich\",\"zone\":3}]}");

    assertThat(report.path("secret").toString())
        .as("the caller's X-API-Key reaches the tool's auth")
        .isEqualTo(
            "[{\"isError\":true,\"text\":\"authentication failed: missing API key: send it in"
                + " the X-API-Key header\"},"
                + "{\"isError\":false,\"text\":\"[{\\\"secret\\\":\\\"classified\\\"}]\"}]");

    JsonNode confirm = report.path("confirm");
    assertThat(confirm.path("accept").toString())
        .as("accepted, the tool runs")
        .isEqualTo(
            "{\"isError\":false,\"text\":\"[{\\\"forgotten\\\":\\\"Bob\\\"}]\","
                + "\"asked\":[{\"message\":\"Forget Bob?\",\"fields\":[]}]}");
    assertThat(confirm.path("decline").path("isError").asBoolean()).as(confirm.toString()).isTrue();
    assertThat(confirm.path("decline").path("text").asString())
        .isEqualTo("the user declined to run tool `forget` (asked: Forget Bob?); it did not run");
    assertThat(confirm.path("cancel").path("isError").asBoolean()).isTrue();
    assertThat(confirm.path("cancel").path("text").asString())
        .startsWith("the user cancelled the confirmation of tool `forget`");
    JsonNode elicit = report.path("elicit");
    assertThat(elicit.path("structured").toString())
        .as("the script gets the user's answer: " + elicit)
        .isEqualTo("{\"action\":\"accept\",\"name\":\"Ada\"}");
    assertThat(elicit.path("asked").toString())
        .isEqualTo("[{\"message\":\"New name?\",\"fields\":[\"name\"]}]");

    JsonNode quiet = report.path("logsWithoutLevel");
    assertThat(quiet.isArray() && quiet.isEmpty()).as("no level asked, no logs: " + quiet).isTrue();
    JsonNode logs = report.path("logsAtInfo");
    assertThat(logs.path("greeting").asString()).as(logs.toString()).isEqualTo("Hello Ada");
    assertThat(logs.path("logs").toString())
        .as("the info line, not the debug one, as MCP's LoggingMessageNotification")
        .isEqualTo("[{\"level\":\"info\",\"logger\":\"script:greet\",\"data\":\"greeting Ada\"}]");

    JsonNode progress = report.path("progress");
    assertThat(progress.path("text").asString()).as(progress.toString()).isEqualTo("[{\"sum\":2}]");
    assertThat(progress.path("updates").valueStream().map(u -> u.path("message").asString()))
        .containsExactly("calling add", "running add", "done");
    assertThat(progress.path("updates").valueStream().map(u -> u.path("progress").asDouble()))
        .as("progress only grows")
        .isSorted();

    assertThat(report.path("resources").valueStream().map(JsonNode::asString))
        .as(report.path("resources").toString())
        .containsExactly("docs://guide");
    JsonNode guide = report.path("guide");
    assertThat(guide.size()).as(guide.toString()).isOne();
    assertThat(guide.path(0).path("uri").asString()).isEqualTo("docs://guide");
    assertThat(guide.path(0).path("mimeType").asString()).isEqualTo("text/markdown");
    assertThat(guide.path(0).path("text").asString()).startsWith("# Guide\n");
    assertThat(report.path("missingResource").path("error").asString())
        .contains("Resource not found");

    assertThat(report.path("prompts").valueStream().map(JsonNode::asString))
        .as(report.path("prompts").toString())
        .containsExactly("review");
    assertThat(report.path("prompt").toString())
        .isEqualTo("[{\"role\":\"user\",\"text\":\"Review this java code.\"}]");
    assertThat(report.path("completion").valueStream().map(JsonNode::asString))
        .as(report.path("completion").toString())
        .containsExactly("java", "javascript");
    assertThat(report.path("close").asString()).isEqualTo("closed");
  }
}
