package dev.svc.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.audit.AuditFile;
import dev.svc.cli.Instance;
import dev.svc.connector.Connectors;
import dev.svc.log.Level;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.script.PooledScriptRunner;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.HranaTestServer;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /metrics} parsed after a few calls, the audit trail (redacted, across a reload), and
 * planted secrets that must appear in neither the debug log nor the audit file.
 */
class MetricsAndAuditIT {
  private static final String KEY = "planted-api-key-6d1f";
  private static final String TOKEN = "planted-libsql-token-93ab";
  private static final String BEARER = "planted-bearer-c0ffee";
  private static final String VALUE = "planted-value-7e57";

  private static final String PROJECT =
      """
      == .svc
      name: metered
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/adapters/edge.terse
      connector: sqlite
      connection_string: "{{ env.LIBSQL_URL }}"
      options:
        authToken: "{{ env.LIBSQL_TOKEN }}"
      == app/tools/metered_item/config.terse
      description: One item.
      use: db
      statement: SELECT {{ inputs.id }} AS id, {{ inputs.note }} AS note
      inputs:
        id: {type: int, redact: false}
        note: {type: string, optional: true}
      auth:
        plugin: api_key
        policy:
          value: "{{ env.ITEM_KEY }}"
      cache:
        enabled: true
      == app/tools/metered_remote/config.terse
      description: Counts remote items.
      use: edge
      statement: SELECT count(*) AS n FROM items WHERE name <> {{ inputs.name }}
      inputs:
        name: {type: string}
      """;

  @TempDir Path dir;
  private CapturedLog log;

  @AfterEach
  void restoreLogging() {
    if (log != null) {
      log.close();
    }
  }

  @Test
  void metricsCountCallsAndAuditLinesAreRedactedAndNoSecretLeaks() throws Exception {
    Path remote = dir.resolve("remote.db");
    try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite:" + remote);
        Statement seed = sqlite.createStatement()) {
      seed.executeUpdate("CREATE TABLE items (name TEXT)");
      seed.executeUpdate("INSERT INTO items VALUES ('pen'), ('mug')");
    }
    log = CapturedLog.asJson(Level.DEBUG);
    Path project = dir.resolve("project");
    Path auditPath = dir.resolve("audit/trail.jsonl");
    try (HranaTestServer libsql = new HranaTestServer(remote, Set.of(2, 3), Optional.of(TOKEN))) {
      Map<String, String> env =
          Map.of("LIBSQL_URL", libsql.baseUrl(), "LIBSQL_TOKEN", TOKEN, "ITEM_KEY", KEY);
      Model model = ProjectFixture.model(project, PROJECT);
      try (Instance instance =
          Instance.launch(
              model,
              new Instance.Options(
                  Environment.of(env),
                  project,
                  "127.0.0.1",
                  0,
                  false,
                  Connectors::open,
                  dev.svc.protocol.a2a.A2aServer.Settings.defaults(),
                  AuditFile.open(auditPath)))) {
        McpHttpClient client = new McpHttpClient(instance.baseUrl());
        client.initialize();
        for (int i = 0; i < 2; i++) { // the second is a cache hit
          JsonNode ok = call(client, "metered_item", "{\"id\":7,\"note\":\"" + VALUE + "\"}", KEY);
          assertThat(ok.path("result").path("isError").asBoolean()).isFalse();
        }
        JsonNode refused = call(client, "metered_item", "{\"id\":8}", "wrong-key");
        assertThat(refused.path("result").path("isError").asBoolean()).isTrue();
        JsonNode remoteCall = call(client, "metered_remote", "{\"name\":\"" + VALUE + "\"}", "");
        assertThat(remoteCall.path("result").path("structuredContent").toString()).contains("2");

        Map<String, Double> metrics = scrape(instance.baseUrl() + "/metrics");
        assertThat(
                metrics.get(
                    "svc_tool_call_duration_seconds_count{gen_ai_tool_name=\"metered_item\"}"))
            .isEqualTo(2.0);
        assertThat(
                metrics.get(
                    "svc_tool_call_duration_seconds_count{gen_ai_tool_name=\"metered_item\","
                        + "error_type=\"tool_error\"}"))
            .isEqualTo(1.0);
        assertThat(metrics.get("svc_cache_hits_total{gen_ai_tool_name=\"metered_item\"}"))
            .isEqualTo(1.0);
        assertThat(metrics.get("svc_cache_misses_total{gen_ai_tool_name=\"metered_item\"}"))
            .isEqualTo(1.0);
        assertThat(
                metrics.get(
                    "mcp_server_operation_duration_seconds_count{mcp_method_name=\"tools/call\","
                        + "gen_ai_tool_name=\"metered_item\",error_type=\"tool_error\"}"))
            .isEqualTo(1.0);
        assertThat(
                metrics.get(
                    "db_client_operation_duration_seconds_count{db_system_name=\"sqlite\","
                        + "svc_adapter=\"edge\"}"))
            .isEqualTo(1.0);
        assertThat(metrics.get("db_client_connection_max{db_client_connection_pool_name=\"db\"}"))
            .isGreaterThan(0);
        assertThat(
                metrics.get(
                    "db_client_connection_count{db_client_connection_pool_name=\"db\","
                        + "db_client_connection_state=\"used\"}"))
            .isEqualTo(0.0);
        assertThat(metrics)
            .containsKey(
                "http_server_request_duration_seconds_count{http_request_method=\"POST\","
                    + "http_route=\"/mcp\",http_response_status_code=\"200\"}");
        assertThat(metrics.get("svc_cache_entries")).isEqualTo(1.0);

        // a reload keeps the trail: the next call is still audited
        instance.reload(ProjectFixture.model(project, PROJECT), Set.of());
        call(client, "metered_item", "{\"id\":9}", KEY);
      }
    }

    List<String> lines = Files.readAllLines(auditPath);
    assertThat(lines).hasSize(5);
    JsonMapper json = JsonMapper.builder().build();
    JsonNode first = json.readTree(lines.get(0));
    assertThat(first.path("kind").asString()).isEqualTo("tool_call");
    assertThat(first.path("tool").asString()).isEqualTo("metered_item");
    assertThat(first.path("via").asString()).isEqualTo("mcp");
    assertThat(first.path("caller").asString()).startsWith("key:").hasSize(16);
    assertThat(first.path("arguments").toString()).isEqualTo("{\"id\":7,\"note\":\"[redacted]\"}");
    assertThat(first.path("outcome").asString()).isEqualTo("ok");
    assertThat(first.path("request_id").asString()).hasSize(12);
    assertThat(first.has("duration_ms")).isTrue();
    JsonNode denied = json.readTree(lines.get(2));
    assertThat(denied.path("outcome").asString()).isEqualTo("error");
    assertThat(denied.path("caller").asString()).isEqualTo("anonymous");
    assertThat(denied.path("error").asString()).isEqualTo("authentication failed: invalid API key");
    assertThat(json.readTree(lines.get(3)).path("arguments").toString())
        .isEqualTo("{\"name\":\"[redacted]\"}");
    assertThat(json.readTree(lines.get(4)).path("arguments").toString()).isEqualTo("{\"id\":9}");

    String everything = log.text() + String.join("\n", lines);
    assertThat(log.text()).contains("\"level\":\"debug\"");
    for (String secret : List.of(KEY, TOKEN, BEARER, VALUE, "wrong-key")) {
      assertThat(everything)
          .as("the log and audit trail hold no %s", secret)
          .doesNotContain(secret);
    }
  }

  @Test
  void metricsCanMoveToTheirOwnPortOrBeTurnedOff() throws Exception {
    Model separate =
        ProjectFixture.model(
            dir.resolve("separate"),
            """
            == .svc
            name: separate
            server:
              metrics:
                port: 0
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/one/config.terse
            description: One.
            use: db
            statement: SELECT 1 AS one
            """);
    try (Instance instance = launch(separate, dir.resolve("separate"))) {
      assertThat(instance.metricsPort()).isPresent();
      assertThat(get(instance.baseUrl() + "/metrics").statusCode()).isEqualTo(404);
      String own = "http://127.0.0.1:" + instance.metricsPort().get();
      HttpResponse<String> metrics = get(own + "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.headers().firstValue("Content-Type").orElse(""))
          .startsWith("text/plain; version=0.0.4");
      assertThat(metrics.body()).contains("# TYPE svc_tool_call_duration_seconds histogram");
      assertThat(get(own + "/mcp").statusCode()).isEqualTo(404);
    }
    Model off =
        ProjectFixture.model(
            dir.resolve("off"),
            """
            == .svc
            name: off
            server:
              metrics:
                enabled: false
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/one/config.terse
            description: One.
            use: db
            statement: SELECT 1 AS one
            """);
    try (Instance instance = launch(off, dir.resolve("off"))) {
      assertThat(get(instance.baseUrl() + "/metrics").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void scriptPoolGaugesAndScriptDurationsAfterHandlerCalls() throws Exception {
    Path project = dir.resolve("scripted");
    Model model =
        ProjectFixture.model(
            project,
            """
            == .svc
            name: scripted
            == app/tools/metered_greet/config.terse
            description: Greets.
            inputs:
              name: {type: string}
            == app/tools/metered_greet/handler.ts
            export default ({ inputs }: { inputs: { name: string } }) => {
              if (inputs.name === "boom") throw new Error("no");
              return { hi: inputs.name };
            };
            == app/tools/metered_greet/output.ts
            export default ({ results }: { results: unknown[] }) => results[0];
            """);
    try (Instance instance = launch(model, project)) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      assertThat(client.call("metered_greet", "{\"name\":\"Ada\"}").toString())
          .contains("\"hi\":\"Ada\"");
      assertThat(client.call("metered_greet", "{\"name\":\"boom\"}").toString())
          .contains("\"isError\":true");

      Map<String, Double> metrics = scrape(instance.baseUrl() + "/metrics");
      assertThat(metrics.get("svc_script_isolates{svc_isolate_state=\"busy\"}")).isEqualTo(0.0);
      assertThat(metrics.get("svc_script_isolates{svc_isolate_state=\"idle\"}"))
          .isGreaterThanOrEqualTo(1.0);
      assertThat(metrics.get("svc_script_isolates_max"))
          .as("one isolate per core by default")
          .isEqualTo((double) PooledScriptRunner.Settings.defaultIsolates());
      assertThat(metrics.get("svc_script_pending_calls")).isEqualTo(0.0);
      assertThat(metrics.get("svc_script_memory_limit_bytes"))
          .as("the memory ceiling, by default sized from the machine: at least one 128 MiB heap")
          .isGreaterThanOrEqualTo(128.0 * 1024 * 1024);
      assertThat(metrics.get("svc_script_memory_reserved_bytes"))
          .as("the idle isolates count at their heap cap")
          .isEqualTo(
              metrics.get("svc_script_isolates{svc_isolate_state=\"idle\"}") * 128 * 1024 * 1024);
      assertThat(metrics.get("svc_script_memory_used_bytes"))
          .as("what the isolates hold, measured after the call: a few MB, far below their caps")
          .isGreaterThan(512.0 * 1024)
          .isLessThan(metrics.get("svc_script_memory_reserved_bytes"));
      assertThat(
              metrics.get(
                  "svc_tool_call_duration_seconds_count{gen_ai_tool_name=\"metered_greet\"}"))
          .isEqualTo(1.0);
      String handler = "gen_ai_tool_name=\"metered_greet\",svc_script_stage=\"handler\"";
      assertThat(metrics.get("svc_script_call_duration_seconds_count{" + handler + "}"))
          .isEqualTo(1.0);
      assertThat(
              metrics.get(
                  "svc_script_call_duration_seconds_count{"
                      + handler
                      + ",error_type=\"script_failed\"}"))
          .isEqualTo(1.0);
      assertThat(
              metrics.get(
                  "svc_script_call_duration_seconds_count{gen_ai_tool_name=\"metered_greet\","
                      + "svc_script_stage=\"output\"}"))
          .as("the output transform ran only after the handler succeeded")
          .isEqualTo(1.0);
      assertThat(metrics.get("svc_script_call_duration_seconds_bucket{" + handler + ",le=\"60\"}"))
          .isEqualTo(1.0);
      assertThat(metrics)
          .as("microsecond buckets")
          .containsKey("svc_script_call_duration_seconds_bucket{" + handler + ",le=\"0.00001\"}");
    }
  }

  private static Instance launch(Model model, Path directory) {
    return Instance.launch(
        model,
        new Instance.Options(
            Environment.of(Map.of()), directory, "127.0.0.1", 0, false, Connectors::open));
  }

  private static JsonNode call(McpHttpClient client, String tool, String arguments, String key) {
    String body =
        client.requestBody(
            "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}");
    McpHttpClient.Reply reply =
        key.isEmpty()
            ? client.post(body, "Authorization", "Bearer " + BEARER)
            : client.post(body, "X-API-Key", key, "Authorization", "Bearer " + BEARER);
    return reply.json();
  }

  private static HttpResponse<String> get(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** Sample lines of a Prometheus text page: {@code name{labels}} → value. */
  private static Map<String, Double> scrape(String url) throws Exception {
    HttpResponse<String> response = get(url);
    assertThat(response.statusCode()).isEqualTo(200);
    Map<String, Double> samples = new HashMap<>();
    for (String line : response.body().split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
    }
    return samples;
  }
}
