package dev.svc.protocol.a2a;

import static dev.svc.testing.Spans.attribute;
import static dev.svc.testing.Spans.named;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.telemetry.OtelTelemetry;
import dev.svc.telemetry.Telemetry;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ScriptedModelServer;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * One agent task over A2A against a scripted OpenAI-compatible model: its span tree ({@code
 * invoke_agent}, one {@code chat} span per model call, the tool call the agent made), captured with
 * the SDK's in-memory exporter, and its metrics at {@code /metrics}.
 */
class AgentTelemetryIT {
  /** {@code NAME} is replaced per test: the metric registry is shared by every test of the JVM. */
  private static final String PROJECT =
      """
      == .svc
      name: observed
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/NAME_forecast/config.terse
      description: Weather forecast for a city.
      use: db
      statement: SELECT {{ inputs.city }} AS city, 'sunny' AS forecast
      inputs:
        city:
          type: string
          description: The city.
      == app/agents/NAME/config.terse
      description: Answers questions about the weather.
      instruction: You are a weather assistant.
      model:
        provider: openai
        model: gpt-NAME
        options:
          base_url: {{MODEL}}/v1
          api_key: "{{ env.TEST_OPENAI_KEY }}"
      tool_access:
        mode: allow_list
        tools: [NAME_forecast]
      """;

  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String PARENT = "00f067aa0ba902b7";

  @TempDir Path dir;
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();

  @AfterEach
  void stopTracing() {
    Telemetry.shutdown();
  }

  @Test
  void anAgentTaskIsOneTraceWithItsModelCallsAndToolCallAsChildren() {
    SdkTracerProvider provider =
        SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
    OpenTelemetrySdk sdk =
        OpenTelemetrySdk.builder()
            .setTracerProvider(provider)
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    Telemetry.install(OtelTelemetry.of(sdk, sdk::close));
    try (ScriptedModelServer model = ScriptedModelServer.start();
        A2aFixture svc = launch("traced", model)) {
      // the first answer reports its tokens, the second does not
      model.json(
          OpenAiReplies.toolCall("call_1", "traced_forecast", "{\"city\":\"Paris\"}")
              .replaceFirst("^\\{", "{\"usage\":{\"prompt_tokens\":57,\"completion_tokens\":12},"));
      model.json(OpenAiReplies.text("It is sunny in Paris."));

      JsonNode task =
          svc.result(
                  "traced",
                  "SendMessage",
                  A2aServerIT.userMessage("Weather in Paris?"),
                  "traceparent",
                  "00-" + TRACE + "-" + PARENT + "-01")
              .path("task");
      assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");

      List<SpanData> finished =
          await(all ->
              all.stream().anyMatch(s -> s.getName().equals("POST /agent/{name}"))
                  && all.stream().anyMatch(s -> s.getName().equals("invoke_agent traced")));
      assertThat(finished).allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(TRACE));
      SpanData http = named(finished, "POST /agent/{name}");
      SpanData agent = named(finished, "invoke_agent traced");
      List<SpanData> chats =
          finished.stream().filter(s -> s.getName().equals("chat gpt-traced")).toList();
      SpanData tool = named(finished, "execute_tool traced_forecast");
      SpanData db = named(finished, "SELECT db");

      assertThat(http.getKind()).isEqualTo(SpanKind.SERVER);
      assertThat(http.getParentSpanId()).isEqualTo(PARENT);
      assertThat(attribute(http, "http.route")).isEqualTo("/agent/{name}");

      assertThat(agent.getParentSpanId()).isEqualTo(http.getSpanId());
      assertThat(agent.getKind()).isEqualTo(SpanKind.INTERNAL);
      assertThat(attribute(agent, "gen_ai.operation.name")).isEqualTo("invoke_agent");
      assertThat(attribute(agent, "gen_ai.agent.name")).isEqualTo("traced");
      assertThat(attribute(agent, "gen_ai.conversation.id"))
          .isEqualTo(task.path("contextId").asString());
      assertThat(attribute(agent, "svc.task.id")).isEqualTo(task.path("id").asString());
      assertThat(attribute(agent, "svc.task.state")).isEqualTo("completed");

      assertThat(chats).hasSize(2);
      for (SpanData chat : chats) {
        assertThat(chat.getParentSpanId()).isEqualTo(agent.getSpanId());
        assertThat(chat.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(attribute(chat, "gen_ai.operation.name")).isEqualTo("chat");
        assertThat(attribute(chat, "gen_ai.provider.name")).isEqualTo("openai");
        assertThat(attribute(chat, "gen_ai.request.model")).isEqualTo("gpt-traced");
        assertThat(attribute(chat, "gen_ai.agent.name")).isEqualTo("traced");
      }
      assertThat(chats.stream().map(c -> attribute(c, "svc.tool_calls")))
          .containsExactlyInAnyOrder("1", "0");

      assertThat(tool.getParentSpanId()).isEqualTo(agent.getSpanId());
      assertThat(attribute(tool, "gen_ai.operation.name")).isEqualTo("execute_tool");
      assertThat(attribute(tool, "gen_ai.tool.name")).isEqualTo("traced_forecast");
      assertThat(attribute(tool, "gen_ai.tool.type")).isEqualTo("datastore");
      // the tool runs between the two model calls
      SpanData first =
          chats.stream()
              .filter(c -> attribute(c, "svc.tool_calls").equals("1"))
              .findFirst()
              .orElseThrow();
      SpanData second =
          chats.stream()
              .filter(c -> attribute(c, "svc.tool_calls").equals("0"))
              .findFirst()
              .orElseThrow();
      assertThat(tool.getStartEpochNanos()).isGreaterThanOrEqualTo(first.getEndEpochNanos());
      assertThat(attribute(first, "gen_ai.usage.input_tokens")).isEqualTo("57");
      assertThat(attribute(first, "gen_ai.usage.output_tokens")).isEqualTo("12");
      assertThat(second.getAttributes().asMap().keySet().toString()).doesNotContain("gen_ai.usage");
      assertThat(second.getStartEpochNanos()).isGreaterThanOrEqualTo(tool.getEndEpochNanos());

      assertThat(db.getParentSpanId()).isEqualTo(tool.getSpanId());
      assertThat(attribute(db, "db.system.name")).isEqualTo("sqlite");

      // prompts, answers and argument values are never recorded
      assertThat(finished.toString())
          .doesNotContain("Paris")
          .doesNotContain("weather assistant")
          .doesNotContain("sk-test");
    }
  }

  @Test
  void metricsCountTheModelCallsAndTheTaskByAgentModelAndState() {
    try (ScriptedModelServer model = ScriptedModelServer.start();
        A2aFixture svc = launch("metered", model)) {
      model.json(OpenAiReplies.toolCall("call_1", "metered_forecast", "{\"city\":\"Oslo\"}"));
      model.json(OpenAiReplies.text("Snow in Oslo."));
      JsonNode task =
          svc.result("metered", "SendMessage", A2aServerIT.userMessage("Weather in Oslo?"))
              .path("task");
      assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");

      // the task's duration is recorded once its thread is done, a moment after the answer
      String taskCount =
          "svc_agent_task_duration_seconds_count{gen_ai_agent_name=\"metered\","
              + "svc_task_state=\"completed\"}";
      Map<String, Double> metrics = scrapeUntil(svc, taskCount);
      assertThat(metrics.get(taskCount)).isEqualTo(1.0);
      assertThat(
              metrics.get(
                  "gen_ai_client_operation_duration_seconds_count{gen_ai_operation_name=\"chat\","
                      + "gen_ai_provider_name=\"openai\",gen_ai_request_model=\"gpt-metered\"}"))
          .isEqualTo(2.0);
      assertThat(
              metrics.get(
                  "gen_ai_client_operation_duration_seconds_bucket{gen_ai_operation_name=\"chat\","
                      + "gen_ai_provider_name=\"openai\",gen_ai_request_model=\"gpt-metered\","
                      + "le=\"+Inf\"}"))
          .isEqualTo(2.0);
      assertThat(
              metrics.get(
                  "svc_agent_task_duration_seconds_sum{gen_ai_agent_name=\"metered\","
                      + "svc_task_state=\"completed\"}"))
          .isGreaterThan(0.0);
      assertThat(
              metrics.get(
                  "svc_tool_call_duration_seconds_count{gen_ai_tool_name=\"metered_forecast\"}"))
          .isEqualTo(1.0);
    }
  }

  private A2aFixture launch(String name, ScriptedModelServer model) {
    return A2aFixture.launch(
        dir,
        PROJECT.replace("NAME", name),
        model.url(),
        Map.of("TEST_OPENAI_KEY", "sk-test"),
        A2aServer.Settings.defaults());
  }

  /** The finished spans once {@code done} holds (they end after the response is written). */
  private List<SpanData> await(Predicate<List<SpanData>> done) {
    long until = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < until) {
      List<SpanData> finished = spans.getFinishedSpanItems();
      if (done.test(finished)) {
        return finished;
      }
      sleep();
    }
    return spans.getFinishedSpanItems();
  }

  /** Scrapes {@code /metrics} until {@code sample} is there (or 10 s pass). */
  private static Map<String, Double> scrapeUntil(A2aFixture svc, String sample) {
    long until = System.nanoTime() + 10_000_000_000L;
    Map<String, Double> samples = scrape(svc);
    while (!samples.containsKey(sample) && System.nanoTime() < until) {
      sleep();
      samples = scrape(svc);
    }
    return samples;
  }

  /** Sample lines of the Prometheus text page: {@code name{labels}} → value. */
  private static Map<String, Double> scrape(A2aFixture svc) {
    HttpResponse<String> response = svc.get("/metrics");
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

  private static void sleep() {
    try {
      Thread.sleep(10);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
