package dev.svc.protocol.a2a;

import static dev.svc.protocol.a2a.A2aTaskOwnershipIT.ALICE;
import static dev.svc.protocol.a2a.A2aTaskOwnershipIT.ANONYMOUS;
import static dev.svc.protocol.a2a.A2aTaskOwnershipIT.BOB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ScriptedModelServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A message sent again with the same {@code messageId} (a client retrying after a lost answer) is
 * answered with the task its first send started: the agent runs, and the model is paid, once. Only
 * the same caller's same message counts: other content is refused, another caller's message with
 * the same id is theirs.
 */
class A2aMessageRetriesIT {
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

  static String message(String messageId, String text) {
    return "{\"message\":{\"messageId\":"
        + Json.MAPPER.writeValueAsString(messageId)
        + ",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":"
        + Json.MAPPER.writeValueAsString(text)
        + "}]}}";
  }

  static String state(JsonNode task) {
    return task.path("status").path("state").asString();
  }

  JsonNode error(String params, String... headers) {
    JsonNode response = svc.rpc("chat", "SendMessage", params, headers);
    assertThat(response.has("error")).as("must fail: " + response).isTrue();
    return response.get("error");
  }

  @Test
  void aRetriedSendMessageAnswersWithTheFirstTaskAndCallsTheModelOnce() {
    model.json(OpenAiReplies.text("Nice to meet you, Ada."));
    model.json(OpenAiReplies.text("a second run"));
    JsonNode first = svc.result("chat", "SendMessage", message("m-ada", "I am Ada."), ALICE);
    JsonNode again = svc.result("chat", "SendMessage", message("m-ada", "I am Ada."), ALICE);

    assertThat(again.path("task").path("id").asString())
        .isEqualTo(first.path("task").path("id").asString());
    assertThat(state(again.path("task"))).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(again.path("task").path("artifacts").toString()).contains("Nice to meet you, Ada.");
    assertThat(model.requests()).hasSize(1);
    assertThat(svc.result("chat", "ListTasks", "{}", ALICE).path("totalSize").asInt()).isEqualTo(1);
  }

  @Test
  void identicalSendsAtOnceStartOneTask() throws Exception {
    model.json(OpenAiReplies.text("one answer"));
    for (int i = 1; i < 8; i++) {
      model.json(OpenAiReplies.text("a duplicate run"));
    }
    ExecutorService clients = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<JsonNode>> sends = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        sends.add(
            clients.submit(() -> {
              go.await();
              return svc.result("chat", "SendMessage", message("m-burst", "Go."), ALICE);
            }));
      }
      go.countDown();
      List<String> ids = new ArrayList<>();
      for (Future<JsonNode> send : sends) {
        JsonNode task = send.get().path("task");
        assertThat(state(task)).isEqualTo("TASK_STATE_COMPLETED");
        ids.add(task.path("id").asString());
      }
      assertThat(ids).containsOnly(ids.getFirst());
      assertThat(model.requests()).hasSize(1);
    } finally {
      clients.shutdownNow();
    }
  }

  @Test
  void otherContentUnderAUsedMessageIdIsRefused() {
    model.json(OpenAiReplies.text("first"));
    model.json(OpenAiReplies.text("second"));
    String id =
        svc.result("chat", "SendMessage", message("m-1", "Hello."), ALICE)
            .path("task")
            .path("id")
            .asString();

    JsonNode refused = error(message("m-1", "Something else."), ALICE);
    assertThat(refused.path("code").asInt()).isEqualTo(-32602);
    assertThat(refused.path("message").asString())
        .contains("messageId m-1 was already received with other content", id);
    JsonNode elsewhere =
        error(
            message("m-1", "Hello.").replace("\"role\"", "\"contextId\":\"another\",\"role\""),
            ALICE);
    assertThat(elsewhere.path("code").asInt()).isEqualTo(-32602);
    assertThat(model.requests()).hasSize(1);
  }

  @Test
  void anotherCallersMessageWithTheSameIdIsTheirsAndRevealsNothing() {
    model.json(OpenAiReplies.text("Alice's secret answer"));
    model.json(OpenAiReplies.text("Bob's answer"));
    model.json(OpenAiReplies.text("anonymous answer"));
    JsonNode alice =
        svc.result("chat", "SendMessage", message("m-shared", "My secret."), ALICE).path("task");

    JsonNode bob =
        svc.result("chat", "SendMessage", message("m-shared", "My secret."), BOB).path("task");
    JsonNode anonymous =
        svc.result("chat", "SendMessage", message("m-shared", "Other text."), ANONYMOUS)
            .path("task");

    assertThat(bob.path("id").asString()).isNotEqualTo(alice.path("id").asString());
    assertThat(bob.toString())
        .doesNotContain(alice.path("id").asString(), alice.path("contextId").asString())
        .doesNotContain("Alice's secret answer")
        .contains("Bob's answer");
    assertThat(anonymous.toString())
        .doesNotContain(alice.path("id").asString())
        .contains("anonymous answer");
    assertThat(model.requests()).hasSize(3);
  }

  @Test
  void aLongMessageIdIsRememberedAndAnOverlongOneRefused() {
    model.json(OpenAiReplies.text("long"));
    model.json(OpenAiReplies.text("again"));
    String longest = "x".repeat(512);
    String id =
        svc.result("chat", "SendMessage", message(longest, "Hi."), ALICE)
            .path("task")
            .path("id")
            .asString();
    assertThat(
            svc.result("chat", "SendMessage", message(longest, "Hi."), ALICE)
                .path("task")
                .path("id")
                .asString())
        .isEqualTo(id);
    JsonNode refused = error(message("x".repeat(100_000), "Hi."), ALICE);
    assertThat(refused.path("code").asInt()).isEqualTo(-32602);
    assertThat(refused.path("message").asString()).hasSizeLessThan(400);
    assertThat(model.requests()).hasSize(1);
  }

  @Test
  void aRefusedMessageCanBeSentAgain() {
    String continuing =
        message("m-lost", "Go on.").replace("\"role\"", "\"taskId\":\"no-such-task\",\"role\"");
    assertThat(error(continuing, ALICE).path("code").asInt()).isEqualTo(-32001);
    assertThat(error(continuing, ALICE).path("code").asInt())
        .as("the first send's claim was given up: the same refusal, not 'received before'")
        .isEqualTo(-32001);
    model.json(OpenAiReplies.text("now it runs"));
    assertThat(
            state(
                svc.result("chat", "SendMessage", message("m-lost", "Go on."), ALICE).path("task")))
        .isEqualTo("TASK_STATE_COMPLETED");
  }

  @Test
  void aRetriedContinuationAnswersWithTheTaskItStarted() {
    model.json(OpenAiReplies.text("first"));
    model.json(OpenAiReplies.text("second"));
    model.json(OpenAiReplies.text("third"));
    String first =
        svc.result("chat", "SendMessage", message("m-a", "One."), ALICE)
            .path("task")
            .path("id")
            .asString();
    String continuing =
        message("m-b", "Two.").replace("\"role\"", "\"taskId\":\"" + first + "\",\"role\"");
    String second =
        svc.result("chat", "SendMessage", continuing, ALICE).path("task").path("id").asString();

    assertThat(
            svc.result("chat", "SendMessage", continuing, ALICE).path("task").path("id").asString())
        .isEqualTo(second)
        .isNotEqualTo(first);
    assertThat(model.requests()).hasSize(2);
  }

  @Test
  void aRetriedStreamFollowsTheRunningTaskThenGetsTheEndedOne() throws Exception {
    CountDownLatch gate = model.gated(OpenAiReplies.delta("streamed once"), OpenAiReplies.done());
    model.json(OpenAiReplies.text("a duplicate run"));
    String params = message("m-stream", "Stream it.");
    A2aFixture.LiveStream first = svc.open("chat", "SendStreamingMessage", params, ALICE);
    String id = first.next().path("result").path("task").path("id").asString();
    assertThat(model.awaitEndlessStarted()).isTrue();

    A2aFixture.LiveStream retry = svc.open("chat", "SendStreamingMessage", params, ALICE);
    JsonNode current = retry.next().path("result").path("task");
    assertThat(current.path("id").asString()).isEqualTo(id);
    assertThat(state(current)).isEqualTo("TASK_STATE_WORKING");
    gate.countDown();
    List<JsonNode> events = retry.rest().events();
    assertThat(state(events.getLast().path("result").path("statusUpdate")))
        .isEqualTo("TASK_STATE_COMPLETED");
    first.rest();

    List<JsonNode> late = svc.open("chat", "SendStreamingMessage", params, ALICE).rest().events();
    assertThat(late).hasSize(1);
    assertThat(late.getFirst().path("result").path("task").path("id").asString()).isEqualTo(id);
    assertThat(state(late.getFirst().path("result").path("task")))
        .isEqualTo("TASK_STATE_COMPLETED");
    assertThat(model.requests()).hasSize(1);
  }
}
