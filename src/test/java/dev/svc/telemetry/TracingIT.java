package dev.svc.telemetry;

import static dev.svc.testing.Spans.attribute;
import static dev.svc.testing.Spans.named;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.InJvmMongo;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import dev.svc.testing.TestRedis;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The span tree of tool calls, captured with the SDK's in-memory exporter, and W3C trace context
 * taken from the HTTP headers and from MCP {@code params._meta}; database spans of MongoDB (in the
 * test JVM) and Redis (the local server) tools.
 */
class TracingIT {
  @RegisterExtension static final InJvmMongo mongo = new InJvmMongo();
  @RegisterExtension static final TestRedis redis = new TestRedis();

  private static final String PROJECT =
      """
      == .svc
      name: traced
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/trace_item/config.terse
      description: One item.
      use: db
      statement: SELECT {{ inputs.id }} AS id, 'pen' AS name
      inputs:
        id: {type: int}
      auth:
        plugin: api_key
        policy:
          value: planted-key-123
      cache:
        enabled: true
      """;

  private static final String STORES =
      """
      == .svc
      name: stores
      == app/adapters/docs.terse
      connector: mongodb
      connection_string: "{{ env.MONGO_URL }}"
      == app/adapters/cache.terse
      connector: redis
      connection_string: "{{ env.REDIS_URL }}"
      == app/tools/people_over/config.terse
      description: People at least a given age.
      use: docs
      statement: |
        {"database": "traced", "command": {"find": "people",
          "filter": {"age": {"$gte": {{ inputs.min_age }}}}, "projection": {"_id": 0}}}
      inputs:
        min_age: {type: int}
      == app/tools/remember/config.terse
      description: Stores a note for a session.
      use: cache
      statement: HSET "PREFIXsession:{{ inputs.id }}" note {{ inputs.note }}
      inputs:
        id: {type: string}
        note: {type: string}
      """;

  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String PARENT = "00f067aa0ba902b7";
  private static final String META_TRACE = "0af7651916cd43dd8448eb211c80319c";
  private static final String META_PARENT = "b7ad6b7169203331";

  @TempDir Path dir;
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();

  @BeforeEach
  void installInMemoryTracing() {
    SdkTracerProvider provider =
        SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
    OpenTelemetrySdk sdk =
        OpenTelemetrySdk.builder()
            .setTracerProvider(provider)
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    Telemetry.install(OtelTelemetry.of(sdk, sdk::close));
  }

  @AfterEach
  void stopTracing() {
    Telemetry.shutdown();
  }

  @Test
  void aToolCallIsOneTreeUnderTheCallersTraceparent() {
    try (Instance instance = RunningProject.start(dir, PROJECT)) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      resetAfterHandshake();
      McpHttpClient.Reply reply =
          client.post(
              client.requestBody(
                  "tools/call", "{\"name\":\"trace_item\",\"arguments\":{\"id\":\"987654321\"}}"),
              "traceparent",
              "00-" + TRACE + "-" + PARENT + "-01",
              "X-API-Key",
              "planted-key-123");
      assertThat(reply.json().path("result").path("isError").asBoolean()).isFalse();

      List<SpanData> finished = afterHttpSpan();
      assertThat(finished).allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(TRACE));
      SpanData http = named(finished, "POST /mcp");
      SpanData mcp = named(finished, "tools/call trace_item");
      SpanData tool = named(finished, "execute_tool trace_item");
      SpanData db = named(finished, "SELECT db");
      assertThat(http.getParentSpanId()).isEqualTo(PARENT);
      assertThat(http.getKind()).isEqualTo(SpanKind.SERVER);
      assertThat(http.getAttributes().asMap().toString())
          .contains("http.route=/mcp", "http.response.status_code=200");
      assertThat(mcp.getParentSpanId()).isEqualTo(http.getSpanId());
      assertThat(mcp.getKind()).isEqualTo(SpanKind.SERVER);
      assertThat(attribute(mcp, "mcp.method.name")).isEqualTo("tools/call");
      assertThat(attribute(mcp, "gen_ai.tool.name")).isEqualTo("trace_item");
      assertThat(attribute(mcp, "mcp.session.id")).isEqualTo(client.session().orElseThrow());
      assertThat(tool.getParentSpanId()).isEqualTo(mcp.getSpanId());
      assertThat(attribute(tool, "gen_ai.operation.name")).isEqualTo("execute_tool");
      List<String> stages =
          finished.stream()
              .filter(s -> s.getParentSpanId().equals(tool.getSpanId()))
              .map(SpanData::getName)
              .toList();
      assertThat(stages)
          .containsExactly("auth", "validate", "cache lookup", "SELECT db", "cache store");
      assertThat(db.getKind()).isEqualTo(SpanKind.CLIENT);
      assertThat(attribute(db, "db.system.name")).isEqualTo("sqlite");
      assertThat(attribute(db, "db.operation.name")).isEqualTo("SELECT");
      assertThat(attribute(db, "db.query.text")).isEqualTo("SELECT ? AS id, 'pen' AS name");
      assertThat(finished.toString()).doesNotContain("987654321").doesNotContain("planted-key-123");
    }
  }

  @Test
  void traceContextInMetaIsTheParentOfTheMcpSpanWhichLinksTheHttpSpan() {
    try (Instance instance = RunningProject.start(dir, PROJECT)) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      resetAfterHandshake();
      client.post(
          client.requestBody(
              "tools/call",
              "{\"name\":\"trace_item\",\"arguments\":{\"id\":1},\"_meta\":{\"traceparent\":\"00-"
                  + META_TRACE
                  + "-"
                  + META_PARENT
                  + "-01\"}}"),
          "traceparent",
          "00-" + TRACE + "-" + PARENT + "-01");

      List<SpanData> finished = afterHttpSpan();
      SpanData http = named(finished, "POST /mcp");
      SpanData mcp = named(finished, "tools/call trace_item");
      SpanData tool = named(finished, "execute_tool trace_item");
      assertThat(http.getTraceId()).isEqualTo(TRACE);
      assertThat(mcp.getTraceId()).isEqualTo(META_TRACE);
      assertThat(mcp.getParentSpanId()).isEqualTo(META_PARENT);
      assertThat(mcp.getLinks())
          .singleElement()
          .satisfies(
              link -> assertThat(link.getSpanContext().getSpanId()).isEqualTo(http.getSpanId()));
      assertThat(tool.getParentSpanId()).isEqualTo(mcp.getSpanId());
      // no X-API-Key: the auth stage refused, and its span and the tool span say so
      SpanData auth = named(finished, "auth");
      assertThat(auth.getParentSpanId()).isEqualTo(tool.getSpanId());
      assertThat(auth.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
      assertThat(tool.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
      assertThat(attribute(tool, "error.type")).isEqualTo("tool_error");
      assertThat(attribute(mcp, "error.type")).isEqualTo("tool_error");
    }
  }

  @Test
  void mongoAndRedisStatementsAreClientSpansUnderTheirToolCalls() {
    try (Instance instance =
        RunningProject.start(
            dir,
            STORES.replace("PREFIX", redis.prefix()),
            Map.of(
                "MONGO_URL", mongo.connectionString(), "REDIS_URL", redis.connectionString(0)))) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      resetAfterHandshake();
      assertThat(
              client
                  .call("people_over", "{\"min_age\": 987654}")
                  .path("result")
                  .path("isError")
                  .asBoolean())
          .isFalse();
      List<SpanData> mongoSpans = afterHttpSpan();
      SpanData mongoTool = named(mongoSpans, "execute_tool people_over");
      SpanData find = named(mongoSpans, "find docs");
      assertThat(find.getParentSpanId()).isEqualTo(mongoTool.getSpanId());
      assertThat(find.getTraceId()).isEqualTo(mongoTool.getTraceId());
      assertThat(find.getKind()).isEqualTo(SpanKind.CLIENT);
      assertThat(attribute(find, "db.system.name")).isEqualTo("mongodb");
      assertThat(attribute(find, "db.operation.name")).isEqualTo("find");
      assertThat(attribute(find, "svc.adapter")).isEqualTo("docs");
      assertThat(attribute(find, "db.query.text"))
          .contains("\"find\": \"people\"", "{{ inputs.min_age }}");
      assertThat(attribute(find, "db.response.returned_rows")).isEqualTo("0");
      assertThat(mongoSpans.toString()).doesNotContain("987654");

      spans.reset();
      assertThat(
              client
                  .call("remember", "{\"id\": \"s1\", \"note\": \"planted-note-55\"}")
                  .path("result")
                  .path("isError")
                  .asBoolean())
          .isFalse();
      List<SpanData> redisSpans = afterHttpSpan();
      SpanData redisTool = named(redisSpans, "execute_tool remember");
      SpanData hset = named(redisSpans, "HSET cache");
      assertThat(hset.getParentSpanId()).isEqualTo(redisTool.getSpanId());
      assertThat(hset.getKind()).isEqualTo(SpanKind.CLIENT);
      assertThat(attribute(hset, "db.system.name")).isEqualTo("redis");
      assertThat(attribute(hset, "db.operation.name")).isEqualTo("HSET");
      assertThat(attribute(hset, "svc.adapter")).isEqualTo("cache");
      assertThat(attribute(hset, "db.query.text"))
          .isEqualTo(
              "HSET \"" + redis.prefix() + "session:{{ inputs.id }}\" note {{ inputs.note }}");
      assertThat(redisSpans.toString()).doesNotContain("planted-note-55");
    }
  }

  @Test
  void aValueTheDatabaseQuotesInItsErrorIsInNeitherTheToolErrorNorAnySpan() {
    String project =
        """
        == .svc
        name: quoting
        == app/adapters/db.terse
        connector: sqlite
        connection_string: ":memory:"
        == app/tools/pick/config.terse
        description: One field of an empty document.
        use: db
        statement: SELECT json_extract('{}', {{ inputs.path }}) AS v
        inputs:
          path: {}
        """;
    try (Instance instance = RunningProject.start(dir, project)) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      resetAfterHandshake();
      McpHttpClient.Reply reply =
          client.post(
              client.requestBody(
                  "tools/call",
                  "{\"name\":\"pick\",\"arguments\":{\"path\":\"my-credit-card-4111\"}}"));

      assertThat(reply.json().path("result").path("isError").asBoolean()).isTrue();
      assertThat(reply.json().path("result").path("content").path(0).path("text").asString())
          .isEqualTo("bad JSON path: '{{ inputs.path }}'");
      List<SpanData> finished = afterHttpSpan();
      SpanData db = named(finished, "SELECT db");
      assertThat(db.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
      assertThat(db.getStatus().getDescription()).isEqualTo("bad JSON path: '{{ inputs.path }}'");
      assertThat(finished.toString()).doesNotContain("my-credit-card-4111");
    }
  }

  @Test
  void withoutTraceContextEachRequestStartsATrace() {
    try (Instance instance = RunningProject.start(dir, PROJECT)) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      resetAfterHandshake();
      client.request("tools/list", "{}");
      List<SpanData> finished = afterHttpSpan();
      SpanData http = named(finished, "POST /mcp");
      SpanData mcp = named(finished, "tools/list");
      assertThat(http.getParentSpanContext().isValid()).isFalse();
      assertThat(mcp.getParentSpanId()).isEqualTo(http.getSpanId());
      assertThat(mcp.getTraceId()).isEqualTo(http.getTraceId());
    }
  }

  /**
   * Forgets the spans of the handshake (initialize, notifications/initialized) once both HTTP spans
   * have ended: they end after their responses are written, and one ending after a plain reset
   * would pass for the next request's.
   */
  private void resetAfterHandshake() {
    long until = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < until
        && spans.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("POST /mcp"))
                .count()
            < 2) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    spans.reset();
  }

  /**
   * The finished spans once the HTTP span has ended: it ends after the response is written, so the
   * client may read the response a moment before.
   */
  private List<SpanData> afterHttpSpan() {
    long until = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < until) {
      List<SpanData> finished = spans.getFinishedSpanItems();
      if (finished.stream().anyMatch(s -> s.getName().equals("POST /mcp"))) {
        return finished;
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return spans.getFinishedSpanItems();
  }
}
