package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ScriptedModelServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * What a hostile or careless A2A client sends, over real HTTP with a scripted model: each is
 * refused as invalid params, and the caller's other tasks and methods go on working.
 */
class A2aHostileClientIT {
  @TempDir Path directory;
  ScriptedModelServer model;
  A2aFixture svc;

  @BeforeEach
  void start() {
    model = ScriptedModelServer.start();
    svc =
        A2aFixture.launch(
            directory,
            AgentProjects.SHOP,
            model.url(),
            Map.of("TEST_OPENAI_KEY", "sk-test-key-123"),
            A2aServerIT.settings());
  }

  @AfterEach
  void stop() {
    svc.close();
    model.close();
  }

  /** {@code levels} nested arrays: {@code [[…]]}. */
  static String nested(int levels) {
    return "[".repeat(levels) + "]".repeat(levels);
  }

  static String message(String part, String metadata) {
    return "{\"message\":{\"messageId\":\"m-deep\",\"role\":\"ROLE_USER\",\"parts\":["
        + part
        + "]"
        + metadata
        + "}}";
  }

  @Test
  void deeplyNestedDataOrMetadataIsRefusedAndTheCallersListingGoesOn() {
    // 494 levels were read (Jackson reads 500), stored, and then every answer showing the task
    // failed as a server fault: its SendMessage, its GetTask, and ListTasks of every anonymous
    // caller for 24 hours
    for (String params :
        new String[] {
          message("{\"data\":" + nested(494) + "}", ""),
          message("{\"text\":\"hi\",\"metadata\":{\"x\":" + nested(300) + "}}", ""),
          message("{\"text\":\"hi\"}", ",\"metadata\":{\"x\":" + nested(300) + "}")
        }) {
      JsonNode refused = svc.rpc("chat", "SendMessage", params);
      assertThat(refused.path("error").path("code").asInt()).as(params).isEqualTo(-32602);
      assertThat(refused.path("error").path("message").asString())
          .matches(
              "Invalid params: `message\\.(parts\\[0]\\.)?(data|metadata)` nests deeper than"
                  + " 100 levels, the most svc takes");
    }
    assertThat(model.requests()).as("no task ran").isEmpty();
    JsonNode listed = svc.rpc("chat", "ListTasks", "{}");
    assertThat(listed.path("result").path("totalSize").asInt()).isZero();

    model.json(OpenAiReplies.text("ok"));
    JsonNode deepest =
        svc.result(
                "chat",
                "SendMessage",
                message(
                    "{\"data\":" + nested(100) + "}", ",\"metadata\":{\"x\":" + nested(99) + "}"))
            .path("task");
    assertThat(A2aServerIT.state(deepest)).isEqualTo("TASK_STATE_COMPLETED");
    JsonNode page = svc.result("chat", "ListTasks", "{}");
    assertThat(page.path("tasks")).hasSize(1);
    assertThat(
            svc.result("chat", "GetTask", "{\"id\":\"" + deepest.path("id").asString() + "\"}")
                .path("history")
                .get(0)
                .path("parts")
                .get(0)
                .has("data"))
        .isTrue();
  }

  static String token(String text) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aForgedPushConfigPageTokenIsInvalidParamsNotAServerFault() {
    model.json(OpenAiReplies.text("ok"));
    String id =
        svc.result("chat", "SendMessage", A2aServerIT.userMessage("hi"))
            .path("task")
            .path("id")
            .asString();
    for (int i = 0; i < 3; i++) {
      svc.result(
          "chat",
          "CreateTaskPushNotificationConfig",
          "{\"taskId\":\""
              + id
              + "\",\"id\":\"c"
              + i
              + "\",\"url\":\"https://hooks.example.com/\"}");
    }
    // -5 reached subList (fromIndex = -5); MAX_VALUE plus the page size wrapped below zero
    for (String forged : new String[] {token("-5"), token("x"), "%%%"}) {
      JsonNode refused =
          svc.rpc(
              "chat",
              "ListTaskPushNotificationConfigs",
              "{\"taskId\":\"" + id + "\",\"pageToken\":\"" + forged + "\"}");
      assertThat(refused.path("error").path("code").asInt()).as(forged).isEqualTo(-32602);
      assertThat(refused.path("error").path("message").asString())
          .isEqualTo("Invalid params: `pageToken` is not a token this server gave out");
    }
    JsonNode beyond =
        svc.result(
            "chat",
            "ListTaskPushNotificationConfigs",
            "{\"taskId\":\""
                + id
                + "\",\"pageSize\":2,\"pageToken\":\""
                + token(String.valueOf(Integer.MAX_VALUE))
                + "\"}");
    assertThat(beyond.path("configs")).isEmpty();
    assertThat(beyond.path("nextPageToken").asString()).isEmpty();
    JsonNode first =
        svc.result(
            "chat",
            "ListTaskPushNotificationConfigs",
            "{\"taskId\":\"" + id + "\",\"pageSize\":2}");
    assertThat(first.path("configs")).hasSize(2);
    JsonNode second =
        svc.result(
            "chat",
            "ListTaskPushNotificationConfigs",
            "{\"taskId\":\""
                + id
                + "\",\"pageSize\":2,\"pageToken\":\""
                + first.path("nextPageToken").asString()
                + "\"}");
    assertThat(second.path("configs")).hasSize(1);
  }

  @Test
  void aStatusTimestampPastEpochMillisecondsIsInvalidParams() {
    // the shared stores overflowed converting it to milliseconds: -32603, logged at error
    JsonNode refused =
        svc.rpc("chat", "ListTasks", "{\"statusTimestampAfter\":\"+999999999-12-31T23:59:59Z\"}");
    assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(refused.path("error").path("message").asString())
        .startsWith("Invalid params: `statusTimestampAfter` is out of range");
  }
}
