package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ScriptedModelServer;
import dev.svc.testing.WireFuzzer;
import dev.svc.testing.WireFuzzer.Request;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Mutated A2A requests, thousands of them, at a real server with an agent (its model a scripted
 * OpenAI-compatible server): every method of A2A v1 and the legacy names, with a value, a key, a
 * header or the bytes changed at random ({@link WireFuzzer}). Each gets a status and well-formed
 * JSON-RPC, never a 5xx or an internal error, nothing goes to svc's log as an error, and the agent
 * answers a plain message afterwards.
 *
 * <p>Fixed seeds, as {@code McpWireFuzzIT}; {@code -Dsvc.fuzz.seed=N -Dsvc.fuzz.requests=M} for
 * another or a longer campaign.
 */
class A2aWireFuzzIT {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final long SEED = Long.getLong("svc.fuzz.seed", 20261127L);
  private static final int REQUESTS = Integer.getInteger("svc.fuzz.requests", 1000);

  private static final List<String> METHODS =
      List.of(
          "SendMessage",
          "SendStreamingMessage",
          "GetTask",
          "ListTasks",
          "CancelTask",
          "SubscribeToTask",
          "CreateTaskPushNotificationConfig",
          "GetTaskPushNotificationConfig",
          "ListTaskPushNotificationConfig",
          "DeleteTaskPushNotificationConfig",
          "GetExtendedAgentCard",
          "message/send",
          "message/stream",
          "tasks/get",
          "tasks/cancel",
          "tasks/resubscribe");

  @TempDir static Path dir;
  static ScriptedModelServer model;
  static A2aFixture svc;
  static int port;
  static String taskId;

  @BeforeAll
  static void start() {
    model =
        ScriptedModelServer.start()
            .otherwise(
                new ScriptedModelServer.JsonReply(
                    200, Json.MAPPER.readTree(OpenAiReplies.text("fine"))));
    svc =
        A2aFixture.launch(
            dir,
            """
            == .svc
            name: fuzzed
            == app/agents/chat/config.terse
            description: Chats.
            instruction: Be brief.
            model:
              provider: openai
              model: gpt-test
              options:
                base_url: {{MODEL}}/v1
                api_key: test-key
            """,
            model.url(),
            Map.of(),
            A2aServerIT.settings());
    port = URI.create(svc.url()).getPort();
    taskId =
        svc.result("chat", "SendMessage", A2aServerIT.userMessage("hi"))
            .path("task")
            .path("id")
            .asString();
    assertThat(taskId).isNotBlank();
  }

  @AfterAll
  static void stop() {
    svc.close();
    model.close();
  }

  @Test
  void mutatedRequestsOneAfterAnotherGetAPreciseAnswerAndTheAgentKeepsAnswering() {
    WireFuzzer.assertHeld(
        "seed " + SEED,
        () -> fuzzer().campaign(SEED, REQUESTS, A2aWireFuzzIT::seed),
        A2aWireFuzzIT::assertAnswersAPlainMessage);
  }

  @Test
  void mutatedRequestsFromEightClientsAtOnceGetAPreciseAnswerAndTheAgentKeepsAnswering() {
    WireFuzzer.assertHeld(
        "seeds " + (SEED + 1_000) + "…" + (SEED + 1_007),
        () -> fuzzer().campaignAtOnce(SEED + 1_000, 8, REQUESTS / 8, A2aWireFuzzIT::seed),
        A2aWireFuzzIT::assertAnswersAPlainMessage);
  }

  private static void assertAnswersAPlainMessage() {
    assertThat(svc.result("chat", "SendMessage", A2aServerIT.userMessage("and now?")).toString())
        .contains("fine");
  }

  private static WireFuzzer fuzzer() {
    List<String> words = new ArrayList<>(METHODS);
    words.addAll(
        List.of(
            "id",
            "method",
            "params",
            "jsonrpc",
            "message",
            "messageId",
            "role",
            "ROLE_USER",
            "ROLE_AGENT",
            "user",
            "parts",
            "text",
            "mediaType",
            "data",
            "raw",
            "url",
            "file",
            "filename",
            "configuration",
            "acceptedOutputModes",
            "historyLength",
            "blocking",
            "returnImmediately",
            "taskId",
            "contextId",
            "referenceTaskIds",
            "metadata",
            "extensions",
            "pageSize",
            "pageToken",
            "status",
            "TASK_STATE_WORKING",
            "TASK_STATE_COMPLETED",
            "pushNotificationConfig",
            "token",
            "authentication",
            "schemes",
            "tenant",
            "http://127.0.0.1:1/hook",
            "http://169.254.169.254/latest/meta-data",
            "https://example.invalid/hook",
            "text/plain",
            "application/json",
            taskId,
            taskId.substring(0, taskId.length() / 2)));
    return new WireFuzzer(
        port,
        words,
        List.of(
            "Content-Type",
            "Accept",
            "A2A-Version",
            "A2A-Extensions",
            "Origin",
            "Authorization",
            "Last-Event-ID",
            "Accept-Encoding",
            "Content-Encoding",
            "X-Forwarded-Host"),
        List.of(
            "application/json",
            "application/json; charset=utf-16",
            "text/plain",
            "text/event-stream",
            "*/*",
            "1.0",
            "0.3",
            "0.3.0",
            "2.0",
            "http://evil.example",
            "null",
            "Bearer x",
            "gzip",
            "https://example.com/ext"));
  }

  // --- seeds: valid requests ---

  private static Request seed(Random random) {
    String method = METHODS.get(random.nextInt(METHODS.size()));
    ObjectNode params = NODES.objectNode();
    switch (method) {
      case "SendMessage", "SendStreamingMessage", "message/send", "message/stream" -> {
        ObjectNode message = params.putObject("message");
        message.put("messageId", "m-" + random.nextLong());
        message.put("role", "ROLE_USER");
        message.putArray("parts").addObject().put("text", "hello").put("mediaType", "text/plain");
        if (random.nextBoolean()) {
          message.put("taskId", taskId);
        }
        params.putObject("configuration");
      }
      case "ListTasks" -> params.put("pageSize", 1 + random.nextInt(5));
      case "CreateTaskPushNotificationConfig" ->
          params
              .put("taskId", taskId)
              .put("id", "c" + random.nextInt(5))
              .put("url", "https://example.invalid/hook");
      case "GetTaskPushNotificationConfig", "DeleteTaskPushNotificationConfig" ->
          params.put("taskId", taskId).put("id", "c" + random.nextInt(5));
      case "ListTaskPushNotificationConfig" -> params.put("taskId", taskId);
      case "GetExtendedAgentCard" -> {}
      default -> params.put("id", taskId);
    }
    ObjectNode body = NODES.objectNode();
    body.put("jsonrpc", "2.0");
    body.put("id", random.nextInt(1_000));
    body.put("method", method);
    body.set("params", params);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Host", "localhost");
    headers.put("Content-Type", "application/json");
    headers.put("A2A-Version", "1.0");
    if (method.contains("Stream") || method.equals("SubscribeToTask")) {
      headers.put("Accept", "text/event-stream");
    }
    String path =
        switch (random.nextInt(20)) {
          case 0 -> "/agent/nobody";
          case 1 -> "/agent/chat/v1/message:send";
          case 2 -> "/agent/" + "c".repeat(5_000);
          default -> "/agent/chat";
        };
    return new Request(path, headers, WireFuzzer.bytes(body));
  }
}
