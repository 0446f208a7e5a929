package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.svc.json.Json;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ScriptedModelServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * End to end with the official A2A JavaScript SDK client ({@code @a2a-js/sdk} 1.3.0, from npm, run
 * with Node): card discovery, sendMessage, sendMessageStream, getTask, listTasks, cancelTask and
 * resubscribe against an svc agent backed by a scripted model. Needs {@code node} (≥ 20) and {@code
 * npm} on PATH and the npm registry; fails, never skips, when they are missing.
 */
class A2aJsSdkIT {
  static final String SDK = "@a2a-js/sdk";
  static final String SDK_VERSION = "1.3.0";
  static final Path HOME = Path.of("target", "a2a-js").toAbsolutePath();

  @TempDir Path directory;

  @BeforeAll
  static void installTheSdk() throws Exception {
    String version = run(List.of("node", "--version"), HOME.getParent(), "Node.js (node ≥ 20)");
    int major = Integer.parseInt(version.strip().replaceFirst("^v", "").split("\\.")[0]);
    if (major < 20) {
      fail(
          "@a2a-js/sdk "
              + SDK_VERSION
              + " needs Node.js 20 or newer; `node --version` says "
              + version.strip());
    }
    run(List.of("npm", "--version"), HOME.getParent(), "npm");
    Files.createDirectories(HOME);
    Path installed = HOME.resolve("node_modules/@a2a-js/sdk/package.json");
    boolean current =
        Files.exists(installed)
            && Json.MAPPER
                .readTree(installed.toFile())
                .path("version")
                .asString()
                .equals(SDK_VERSION);
    if (!current) {
      Files.writeString(
          HOME.resolve("package.json"),
          "{\"private\":true,\"type\":\"module\",\"dependencies\":{\""
              + SDK
              + "\":\""
              + SDK_VERSION
              + "\"}}\n");
      run(
          List.of("npm", "install", "--no-audit", "--no-fund", "--loglevel=error"),
          HOME,
          "npm install " + SDK + "@" + SDK_VERSION);
    }
    try (InputStream script = A2aJsSdkIT.class.getResourceAsStream("/a2a-js/client.mjs")) {
      Files.write(HOME.resolve("client.mjs"), script.readAllBytes());
    }
  }

  /** Runs a command to its end and returns its output; fails the test with a clear message. */
  private static String run(List<String> command, Path where, String what) throws Exception {
    Process process;
    try {
      process =
          new ProcessBuilder(command).directory(where.toFile()).redirectErrorStream(true).start();
    } catch (IOException e) {
      fail(
          what
              + " is needed for the A2A JavaScript SDK test but `"
              + command.getFirst()
              + "` could not be run ("
              + e.getMessage()
              + "); install Node.js 20+ with npm");
      throw e;
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
      fail(String.join(" ", command) + " failed:\n" + output);
    }
    return output;
  }

  @Test
  void theOfficialJsClientDrivesAnAgentThroughEveryMethod() throws Exception {
    try (ScriptedModelServer model = ScriptedModelServer.start();
        A2aFixture svc =
            A2aFixture.launch(
                directory,
                AgentProjects.SHOP,
                model.url(),
                Map.of("TEST_OPENAI_KEY", "sk"),
                A2aServerIT.settings())) {
      model.json(OpenAiReplies.toolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"));
      model.json(OpenAiReplies.text("It is sunny in Paris."));
      model.sse(
          OpenAiReplies.delta("Streaming "), OpenAiReplies.delta("works."), OpenAiReplies.done());
      model.endless(false);
      CountDownLatch gate =
          model.gated(
              OpenAiReplies.delta("Subscribed "),
              OpenAiReplies.delta("and done."),
              OpenAiReplies.done());

      Process node =
          new ProcessBuilder(
                  "node", "client.mjs", svc.url() + "/agent/weather/.well-known/agent-card.json")
              .directory(HOME.toFile())
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      Map<String, JsonNode> steps = new LinkedHashMap<>();
      List<String> lines = new ArrayList<>();
      try (BufferedReader stdout =
              new BufferedReader(
                  new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
          Writer stdin = new OutputStreamWriter(node.getOutputStream(), StandardCharsets.UTF_8)) {
        String line;
        while ((line = stdout.readLine()) != null) {
          lines.add(line);
          System.out.println("js client: " + line);
          JsonNode step = Json.MAPPER.readTree(line);
          steps.put(step.path("step").asString(), step);
          switch (step.path("step").asString()) {
            case "cancel-ready" -> {
              assertThat(model.awaitEndlessStarted()).as("the model call is running").isTrue();
              stdin.write("go\n");
              stdin.flush();
            }
            case "subscribed" -> {
              gate.countDown();
              stdin.write("go\n");
              stdin.flush();
            }
            default -> {}
          }
        }
      }
      if (!node.waitFor(2, TimeUnit.MINUTES) || node.exitValue() != 0) {
        node.destroyForcibly();
        fail("the JS client failed; its output:\n" + String.join("\n", lines));
      }

      JsonNode card = steps.get("card");
      assertThat(card.path("name").asString()).isEqualTo("weather");
      assertThat(card.path("url").asString()).isEqualTo(svc.url() + "/agent/weather");

      JsonNode sent = steps.get("sendMessage");
      assertThat(sent.path("isTask").asBoolean()).isTrue();
      assertThat(sent.path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
      assertThat(sent.path("artifact").asString()).isEqualTo("It is sunny in Paris.");
      assertThat(sent.path("status").asString()).isEqualTo("It is sunny in Paris.");
      assertThat(sent.path("history").asInt()).isEqualTo(2);

      List<String> streamed =
          steps
              .get("sendMessageStream")
              .path("events")
              .valueStream()
              .map(e ->
                  e.path("kind").asString()
                      + ":"
                      + e.path("state").asString("")
                      + e.path("text").asString(""))
              .toList();
      assertThat(streamed)
          .containsExactly(
              "task:TASK_STATE_SUBMITTED",
              "statusUpdate:TASK_STATE_WORKING",
              "artifactUpdate:Streaming ",
              "artifactUpdate:works.",
              "statusUpdate:TASK_STATE_COMPLETEDStreaming works.");

      JsonNode fetched = steps.get("getTask");
      assertThat(fetched.path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
      assertThat(fetched.path("history").asInt()).isEqualTo(1);
      assertThat(fetched.path("role").asString()).isEqualTo("ROLE_AGENT");

      JsonNode listed = steps.get("listTasks");
      assertThat(listed.path("size").asInt()).isEqualTo(1);
      assertThat(listed.path("totalSize").asInt()).isEqualTo(2);
      assertThat(listed.path("hasNext").asBoolean()).isTrue();
      assertThat(listed.path("nextSize").asInt()).isEqualTo(1);
      assertThat(listed.path("nextState").asString()).isEqualTo("TASK_STATE_COMPLETED");

      assertThat(steps.get("cancel-ready").path("state").asString())
          .isEqualTo("TASK_STATE_SUBMITTED");
      assertThat(steps.get("cancelTask").path("state").asString()).isEqualTo("TASK_STATE_CANCELED");
      assertThat(model.awaitDisconnect()).as("the canceled model call was aborted").isTrue();
      assertThat(steps.get("cancelAgain").path("error").asString())
          .isEqualTo("JsonRpcTaskNotCancelableError");

      List<String> resubscribed =
          steps
              .get("resubscribe")
              .path("events")
              .valueStream()
              .map(e ->
                  e.path("kind").asString()
                      + ":"
                      + e.path("state").asString("")
                      + e.path("text").asString(""))
              .toList();
      // the snapshot a subscription starts with: the run may not have begun yet on a busy machine
      assertThat(resubscribed.getFirst())
          .isIn("task:TASK_STATE_WORKING", "task:TASK_STATE_SUBMITTED");
      assertThat(resubscribed).contains("artifactUpdate:Subscribed ", "artifactUpdate:and done.");
      assertThat(resubscribed.getLast())
          .isEqualTo("statusUpdate:TASK_STATE_COMPLETEDSubscribed and done.");

      assertThat(steps.get("extendedCard").path("skills").valueStream().map(JsonNode::asString))
          .containsExactly(
              "weather", "weather/get_weather", "weather/secret_report", "weather/weather_archive");
      assertThat(steps.get("notFound").path("error").asString())
          .isEqualTo("JsonRpcTaskNotFoundError");
      assertThat(steps.get("notFound").path("message").asString())
          .isEqualTo("Task not found: nope");
    }
  }
}
