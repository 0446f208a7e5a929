package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cache.ResultCache;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.protocol.HttpReply;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.script.UnavailableScriptRunner;
import dev.svc.server.HttpServer;
import dev.svc.server.ServerSettings;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.ScriptedModelServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Agent routes follow the current model: DECISIONS "A2A v1", model reload. */
class AgentReloadIT {
  static final String BEFORE =
      """
      == .svc
      name: shop
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/get_weather/config.terse
      description: Weather forecast for a city.
      use: db
      statement: SELECT {{ inputs.city }} AS city, 'sunny' AS forecast
      inputs:
        city:
          type: string
      == app/agents/weather/config.terse
      instruction: Version one.
      model:
        provider: openai
        model: m
        options:
          base_url: {{MODEL}}/v1
      == app/agents/old/config.terse
      instruction: Old.
      model:
        provider: openai
        model: m
        options:
          base_url: {{MODEL}}/v1
      """;

  static final String AFTER =
      BEFORE
          .replace("Version one.", "Version two.")
          .replace("app/agents/old/", "app/agents/fresh/")
          .replace("Old.", "Fresh.");

  @TempDir Path directory;

  ProjectRuntime runtime(Model model) {
    return ProjectRuntime.start(
        model,
        new ProjectRuntime.Settings(
            Environment.of(Map.of()),
            directory,
            dev.svc.connector.Connectors::open,
            new UnavailableScriptRunner(),
            ResultCache.DEFAULT_MAX_BYTES));
  }

  @Test
  void addedRemovedAndChangedAgentsAreServedAtOnceWhileRunningTasksKeepTheirDefinition()
      throws Exception {
    try (ScriptedModelServer model = ScriptedModelServer.start()) {
      Model before =
          ProjectFixture.model(directory.resolve("a"), BEFORE.replace("{{MODEL}}", model.url()));
      Model after =
          ProjectFixture.model(directory.resolve("b"), AFTER.replace("{{MODEL}}", model.url()));
      ProjectRuntime first = runtime(before);
      ProjectRuntime second = runtime(after);
      AtomicReference<ProjectRuntime> current = new AtomicReference<>(first);
      A2aServer agents =
          new A2aServer(current::get, Environment.of(Map.of()), A2aServer.Settings.defaults());
      HttpServer http =
          HttpServer.start(
              new ServerSettings(
                  "127.0.0.1", 0, List.of(), List.of(), ServerSettings.DEFAULT_MAX_BODY_BYTES),
              call -> new HttpReply.Empty(404, Map.of()),
              agents::handle);
      try (A2aFixture svc =
          A2aFixture.at(
              "http://127.0.0.1:" + http.port(),
              () -> {
                http.close();
                agents.close();
                first.close();
                second.close();
              })) {
        CountDownLatch gate =
            model.gated(
                OpenAiReplies.toolDelta(0, "c1", "get_weather", "{\"city\":\"Oslo\"}"),
                OpenAiReplies.done());
        model.sse(OpenAiReplies.delta("Cold."), OpenAiReplies.done());
        A2aFixture.LiveStream running =
            svc.open("weather", "SendStreamingMessage", A2aServerIT.userMessage("Oslo?"));
        String id = running.next().path("result").path("task").path("id").asString();
        assertThat(model.awaitEndlessStarted()).isTrue();

        current.set(second);

        assertThat(svc.get("/agent/old/.well-known/agent-card.json").statusCode()).isEqualTo(404);
        assertThat(svc.get("/agent/fresh/.well-known/agent-card.json").statusCode()).isEqualTo(200);
        gate.countDown();
        List<JsonNode> events = running.rest().events();
        assertThat(A2aServerIT.state(events.getLast().path("result").path("statusUpdate")))
            .isEqualTo("TASK_STATE_COMPLETED");
        assertThat(model.request(1).body().path("messages").get(0).path("content").asString())
            .as("the running task finished on its old definition")
            .isEqualTo("Version one.");

        model.json(OpenAiReplies.text("Hi."));
        svc.result("weather", "SendMessage", A2aServerIT.userMessage("again"));
        assertThat(model.request(2).body().path("messages").get(0).path("content").asString())
            .isEqualTo("Version two.");
        assertThat(
                svc.result("weather", "GetTask", "{\"id\":\"" + id + "\"}").path("id").asString())
            .isEqualTo(id);
      }
    }
  }
}
