package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.audit.AuditFile;
import dev.svc.cli.Instance;
import dev.svc.connector.Connectors;
import dev.svc.json.Json;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** An agent task leaves audit lines: the task itself and the tool calls it made. */
class AgentAuditIT {
  @TempDir Path dir;

  @Test
  void anAgentTaskAndItsToolCallsAreAudited() throws Exception {
    Path audit = dir.resolve("audit.jsonl");
    try (ScriptedModelServer model = ScriptedModelServer.start()) {
      model.json(OpenAiReplies.toolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"));
      model.json(OpenAiReplies.text("It is sunny in Paris."));
      Path project = dir.resolve("project");
      Model compiled =
          ProjectFixture.model(project, AgentProjects.SHOP.replace("{{MODEL}}", model.url()));
      try (Instance instance =
          Instance.launch(
              compiled,
              new Instance.Options(
                  Environment.of(Map.of("TEST_OPENAI_KEY", "sk-test")),
                  project,
                  "127.0.0.1",
                  0,
                  false,
                  Connectors::open,
                  A2aServer.Settings.defaults(),
                  AuditFile.open(audit)))) {
        A2aFixture svc = A2aFixture.at(instance.baseUrl(), () -> {});
        JsonNode task =
            svc.result(
                    "weather",
                    "SendMessage",
                    A2aServerIT.userMessage("Weather in Paris?"),
                    "X-API-Key",
                    "s3cret")
                .path("task");
        assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
      }
    }
    List<JsonNode> lines = awaitLines(audit, 2);
    JsonNode toolCall =
        lines.stream()
            .filter(l -> l.path("kind").asString().equals("tool_call"))
            .findFirst()
            .orElseThrow();
    assertThat(toolCall.path("tool").asString()).isEqualTo("get_weather");
    assertThat(toolCall.path("via").asString()).isNotEqualTo("mcp");
    assertThat(toolCall.path("arguments").toString()).isEqualTo("{\"city\":\"[redacted]\"}");
    JsonNode task =
        lines.stream()
            .filter(l -> !l.path("kind").asString().equals("tool_call"))
            .findFirst()
            .orElseThrow();
    assertThat(task.toString()).contains("weather");
    assertThat(task.path("outcome").asString()).isNotBlank();
    assertThat(task.path("caller").asString())
        .as("the task's owner, by a hash of its key")
        .isEqualTo(
            dev.svc.auth.Principal.fromCredentials(dev.svc.call.Headers.of("X-API-Key", "s3cret"))
                .label())
        .startsWith("key:")
        .doesNotContain("s3cret");
  }

  private static List<JsonNode> awaitLines(Path file, int count) throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    List<String> lines = List.of();
    while (System.nanoTime() < end) {
      lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
      if (lines.size() >= count) {
        break;
      }
      Thread.sleep(50);
    }
    return lines.stream().map(Json.MAPPER::readTree).toList();
  }
}
