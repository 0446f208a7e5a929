package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.cli.Instance;
import dev.svc.connector.Connectors;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.runtime.StartupException;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.ScriptedModelServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Agent routes follow the current model after {@link Instance#reload}: docs/decisions.md "A2A v1".
 */
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

  @Test
  void addedRemovedAndChangedAgentsAreServedAtOnceWhileRunningTasksKeepTheirDefinition()
      throws Exception {
    try (ScriptedModelServer model = ScriptedModelServer.start()) {
      Model before =
          ProjectFixture.model(directory.resolve("a"), BEFORE.replace("{{MODEL}}", model.url()));
      Model after =
          ProjectFixture.model(directory.resolve("b"), AFTER.replace("{{MODEL}}", model.url()));
      Instance instance =
          Instance.launch(
              before,
              new Instance.Options(
                  Environment.of(Map.of("STEPS", "many")),
                  directory,
                  "127.0.0.1",
                  0,
                  true,
                  Connectors::open));
      try (A2aFixture svc = A2aFixture.at(instance.baseUrl(), instance)) {
        CountDownLatch gate =
            model.gated(
                OpenAiReplies.toolDelta(0, "c1", "get_weather", "{\"city\":\"Oslo\"}"),
                OpenAiReplies.done());
        model.sse(OpenAiReplies.delta("Cold."), OpenAiReplies.done());
        A2aFixture.LiveStream running =
            svc.open("weather", "SendStreamingMessage", A2aServerIT.userMessage("Oslo?"));
        String id = running.next().path("result").path("task").path("id").asString();
        assertThat(model.awaitEndlessStarted()).isTrue();

        instance.reload(after, Set.of());

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

        Model broken =
            ProjectFixture.model(
                directory.resolve("c"),
                AFTER
                    .replace("{{MODEL}}", model.url())
                    .replace(
                        "base_url: " + model.url() + "/v1\n",
                        "base_url: " + model.url() + "/v1\n    max_steps: \"{{ env.STEPS }}\"\n"));
        StartupException refused =
            catchThrowableOfType(StartupException.class, () -> instance.reload(broken, Set.of()));
        assertThat(refused.problems()).extracting(Diagnostic::code).contains("invalid-option");
        assertThat(svc.get("/agent/fresh/.well-known/agent-card.json").statusCode())
            .as("the previous project keeps serving")
            .isEqualTo(200);
      }
    }
  }
}
