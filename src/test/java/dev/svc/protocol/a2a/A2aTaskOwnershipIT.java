package dev.svc.protocol.a2a;

import static dev.svc.protocol.a2a.A2aServerIT.userMessage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ScriptedModelServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Tasks belong to the principal that started them (over real HTTP): a caller with other
 * credentials, or none, gets "task not found" for every method, exactly as for an id that never
 * existed, and never sees the task's conversation.
 */
class A2aTaskOwnershipIT {
  static final String[] ALICE = {"X-API-Key", "alice-key"};
  static final String[] BOB = {"X-API-Key", "bob-key"};
  static final String[] CAROL = {"Authorization", "Bearer carol-token"};
  static final String[] ANONYMOUS = {};

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
            Map.of("TEST_OPENAI_KEY", "sk-test"),
            A2aServerIT.settings());
  }

  @AfterEach
  void stop() {
    svc.close();
    model.close();
  }

  static String inContext(String text, String contextId) {
    return userMessage(text).replace("\"role\"", "\"contextId\":\"" + contextId + "\",\"role\"");
  }

  static String continuing(String text, String taskId) {
    return userMessage(text).replace("\"role\"", "\"taskId\":\"" + taskId + "\",\"role\"");
  }

  /** The error of a call that must fail. */
  JsonNode error(String method, String params, String... headers) {
    JsonNode response = svc.rpc("chat", method, params, headers);
    assertThat(response.has("error")).as(method + " must fail: " + response).isTrue();
    return response.get("error");
  }

  /** Asserts the error is the one an id that never existed gets, with {@code id} in it. */
  void assertNotFound(JsonNode error, String id) {
    JsonNode never = error("GetTask", "{\"id\":\"never-existed\"}", ALICE);
    assertThat(error.path("code").asInt()).isEqualTo(-32001);
    assertThat(error.path("data")).isEqualTo(never.path("data"));
    assertThat(error.path("message").asString())
        .isEqualTo(never.path("message").asString().replace("never-existed", id));
  }

  @Test
  void anotherKeyGetsTaskNotFoundForEveryMethodOnAFinishedTask() {
    model.json(OpenAiReplies.text("Nice to meet you, Ada."));
    JsonNode task = svc.result("chat", "SendMessage", userMessage("I am Ada."), ALICE).path("task");
    String id = task.path("id").asString();
    String context = task.path("contextId").asString();
    svc.result(
        "chat",
        "CreateTaskPushNotificationConfig",
        "{\"taskId\":\"" + id + "\",\"id\":\"cfg\",\"url\":\"https://hooks.example.com/a\"}",
        ALICE);

    for (String[] other : List.of(BOB, CAROL, ANONYMOUS)) {
      assertNotFound(error("GetTask", "{\"id\":\"" + id + "\"}", other), id);
      assertNotFound(error("CancelTask", "{\"id\":\"" + id + "\"}", other), id);
      assertNotFound(error("SubscribeToTask", "{\"id\":\"" + id + "\"}", other), id);
      assertNotFound(
          error(
              "GetTaskPushNotificationConfig", "{\"taskId\":\"" + id + "\",\"id\":\"cfg\"}", other),
          id);
      assertNotFound(
          error("ListTaskPushNotificationConfigs", "{\"taskId\":\"" + id + "\"}", other), id);
      assertNotFound(
          error(
              "DeleteTaskPushNotificationConfig",
              "{\"taskId\":\"" + id + "\",\"id\":\"cfg\"}",
              other),
          id);
      assertNotFound(
          error(
              "CreateTaskPushNotificationConfig",
              "{\"taskId\":\"" + id + "\",\"url\":\"https://hooks.example.com/evil\"}",
              other),
          id);
      assertNotFound(error("SendMessage", continuing("Who am I?", id), other), id);
      JsonNode listed = svc.result("chat", "ListTasks", "{}", other);
      assertThat(listed.path("totalSize").asInt()).isZero();
      assertThat(listed.path("tasks")).isEmpty();
      assertThat(
              svc.result("chat", "ListTasks", "{\"contextId\":\"" + context + "\"}", other)
                  .path("totalSize")
                  .asInt())
          .isZero();
    }

    assertThat(
            svc.result("chat", "GetTask", "{\"id\":\"" + id + "\"}", ALICE).path("id").asString())
        .isEqualTo(id);
    JsonNode mine = svc.result("chat", "ListTasks", "{}", ALICE);
    assertThat(mine.path("tasks").valueStream().map(t -> t.path("id").asString()))
        .containsExactly(id);
    JsonNode configs =
        svc.result("chat", "ListTaskPushNotificationConfigs", "{\"taskId\":\"" + id + "\"}", ALICE);
    assertThat(configs.path("configs").valueStream().map(c -> c.path("url").asString()))
        .as("nobody else could add or delete a config")
        .containsExactly("https://hooks.example.com/a");
    assertThat(error("CancelTask", "{\"id\":\"" + id + "\"}", ALICE).path("code").asInt())
        .as("the owner learns the task has ended")
        .isEqualTo(-32002);
  }

  @Test
  void continuingAnotherKeysContextStartsASeparateConversation() {
    model.json(OpenAiReplies.text("Nice to meet you, Ada."));
    model.json(OpenAiReplies.text("I do not know you."));
    model.json(OpenAiReplies.text("You are Ada."));
    String context =
        svc.result("chat", "SendMessage", userMessage("I am Ada, my PIN is 4711."), ALICE)
            .path("task")
            .path("contextId")
            .asString();

    JsonNode bobs =
        svc.result("chat", "SendMessage", inContext("Who am I? What is my PIN?", context), BOB)
            .path("task");
    svc.result("chat", "SendMessage", inContext("And who am I?", context), ALICE);

    assertThat(model.request(1).body().path("messages").toString())
        .as("Bob's model call holds none of Alice's conversation")
        .doesNotContain("Ada")
        .doesNotContain("4711");
    assertThat(bobs.path("history").toString()).doesNotContain("4711");
    assertThat(model.request(2).body().path("messages").toString())
        .as("Alice's conversation holds none of Bob's messages")
        .contains("4711")
        .doesNotContain("What is my PIN?");
    assertThat(
            svc.result("chat", "ListTasks", "{\"contextId\":\"" + context + "\"}", ALICE)
                .path("totalSize")
                .asInt())
        .isEqualTo(2);
    assertThat(
            svc.result("chat", "ListTasks", "{\"contextId\":\"" + context + "\"}", BOB)
                .path("totalSize")
                .asInt())
        .isEqualTo(1);
  }

  @Test
  void aRunningTaskOfAnotherKeyCannotBeCanceledOrSubscribedTo() throws Exception {
    CountDownLatch gate = model.gated(OpenAiReplies.delta("finally"), OpenAiReplies.done());
    A2aFixture.LiveStream stream =
        svc.open("chat", "SendStreamingMessage", userMessage("take your time"), ALICE);
    String id = stream.next().path("result").path("task").path("id").asString();
    assertThat(model.awaitEndlessStarted()).isTrue();

    assertNotFound(error("CancelTask", "{\"id\":\"" + id + "\"}", BOB), id);
    assertNotFound(error("SubscribeToTask", "{\"id\":\"" + id + "\"}", ANONYMOUS), id);
    assertNotFound(error("SendMessage", continuing("me too", id), CAROL), id);
    JsonNode running = svc.result("chat", "GetTask", "{\"id\":\"" + id + "\"}", ALICE);
    assertThat(running.path("status").path("state").asString()).isEqualTo("TASK_STATE_WORKING");

    A2aFixture.LiveStream owner =
        svc.open("chat", "SubscribeToTask", "{\"id\":\"" + id + "\"}", ALICE);
    assertThat(owner.next().path("result").path("task").path("id").asString()).isEqualTo(id);
    gate.countDown();
    assertThat(
            owner
                .rest()
                .events()
                .getLast()
                .path("result")
                .path("statusUpdate")
                .path("status")
                .path("state")
                .asString())
        .isEqualTo("TASK_STATE_COMPLETED");
    stream.rest();
  }

  @Test
  void anonymousCallersShareTheirTasksButNotWithCallersWithCredentials() {
    model.json(OpenAiReplies.text("anonymous answer"));
    model.json(OpenAiReplies.text("keyed answer"));
    String open =
        svc.result("chat", "SendMessage", userMessage("hello")).path("task").path("id").asString();
    String keyed =
        svc.result("chat", "SendMessage", userMessage("hello with a key"), BOB)
            .path("task")
            .path("id")
            .asString();

    assertThat(svc.result("chat", "GetTask", "{\"id\":\"" + open + "\"}").path("id").asString())
        .as("another anonymous request sees the anonymous task")
        .isEqualTo(open);
    assertThat(
            svc.result("chat", "ListTasks", "{}")
                .path("tasks")
                .valueStream()
                .map(t -> t.path("id").asString()))
        .containsExactly(open);
    assertNotFound(error("GetTask", "{\"id\":\"" + keyed + "\"}"), keyed);
    assertNotFound(error("GetTask", "{\"id\":\"" + open + "\"}", BOB), open);
    assertThat(
            svc.result("chat", "ListTasks", "{}", BOB)
                .path("tasks")
                .valueStream()
                .map(t -> t.path("id").asString()))
        .containsExactly(keyed);
  }
}
