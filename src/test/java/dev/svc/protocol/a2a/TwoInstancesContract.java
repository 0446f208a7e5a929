package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ScriptedModelServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Two svc instances in one JVM, on the same shared task store, as two replicas behind a load
 * balancer: a task started through one is read, listed, streamed live and canceled through the
 * other. Run on PostgreSQL ({@link PostgresTwoInstancesIT}) and Redis ({@link
 * RedisTwoInstancesIT}).
 */
abstract class TwoInstancesContract {
  @TempDir Path first;
  @TempDir Path second;
  @TempDir Path third;
  ScriptedModelServer model;
  A2aFixture a;
  A2aFixture b;

  /** The connection string of the shared database. */
  abstract String storeUrl();

  /** {@code postgres} or {@code redis}. */
  abstract String connector();

  static String project(String connector) {
    return """
    == .svc
    name: replicas
    agents:
      tasks:
        store: state
        lease_seconds: 5
    == app/adapters/state.terse
    connector: %s
    connection_string: "{{ env.STATE_URL }}"
    == app/agents/chat/config.terse
    instruction: You chat.
    model:
      provider: openai_compatible
      model: small
      options:
        base_url: {{MODEL}}/v1
        max_steps: 2
    tool_access:
      mode: allow_none
    """
        .formatted(connector);
  }

  @BeforeEach
  void launchTwo() {
    model = ScriptedModelServer.start();
    Map<String, String> env = Map.of("STATE_URL", storeUrl());
    a = A2aFixture.launch(first, project(connector()), model.url(), env, A2aServerIT.settings());
    b = A2aFixture.launch(second, project(connector()), model.url(), env, A2aServerIT.settings());
  }

  @AfterEach
  void stop() {
    if (a != null) {
      a.close();
    }
    if (b != null) {
      b.close();
    }
    model.close();
  }

  static String state(JsonNode task) {
    return task.path("status").path("state").asString();
  }

  static String id(String taskId) {
    return "{\"id\":\"" + taskId + "\"}";
  }

  @Test
  void aTaskStartedOnOneInstanceIsReadListedAndStreamedLiveOnTheOther() throws Exception {
    CountDownLatch gate =
        model.gated(
            OpenAiReplies.delta("Sunny "), OpenAiReplies.delta("in Rome."), OpenAiReplies.done());
    A2aFixture.LiveStream started =
        a.open("chat", "SendStreamingMessage", A2aServerIT.userMessage("weather?"));
    String taskId = started.next().path("result").path("task").path("id").asString();
    assertThat(model.awaitEndlessStarted()).isTrue();

    JsonNode onB = b.result("chat", "GetTask", id(taskId));
    assertThat(state(onB)).isEqualTo("TASK_STATE_WORKING");
    JsonNode listed = b.result("chat", "ListTasks", "{}");
    assertThat(listed.path("tasks").get(0).path("id").asString()).isEqualTo(taskId);

    A2aFixture.LiveStream followed = b.open("chat", "SubscribeToTask", id(taskId));
    JsonNode snapshot = followed.next().path("result").path("task");
    assertThat(state(snapshot)).isEqualTo("TASK_STATE_WORKING");
    gate.countDown(); // the model answers only now: what B streams is live
    List<JsonNode> events = followed.rest().events();

    assertThat(events.toString()).contains("Sunny ").contains("in Rome.");
    assertThat(state(events.getLast().path("result").path("statusUpdate")))
        .isEqualTo("TASK_STATE_COMPLETED");
    assertThat(state(started.rest().events().getLast().path("result").path("statusUpdate")))
        .isEqualTo("TASK_STATE_COMPLETED");
    JsonNode done = b.result("chat", "GetTask", id(taskId));
    assertThat(state(done)).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(done.path("artifacts").get(0).path("parts").get(0).path("text").asString())
        .isEqualTo("Sunny in Rome.");
  }

  @Test
  void aCancelThroughTheOtherInstanceStopsTheRunner() throws Exception {
    model.endless(true);
    A2aFixture.LiveStream started =
        a.open("chat", "SendStreamingMessage", A2aServerIT.userMessage("forever"));
    String taskId = started.next().path("result").path("task").path("id").asString();
    assertThat(model.awaitEndlessStarted()).isTrue();

    JsonNode canceled = b.result("chat", "CancelTask", id(taskId));

    assertThat(state(canceled)).isEqualTo("TASK_STATE_CANCELED");
    assertThat(model.awaitDisconnect()).as("A's model call was aborted").isTrue();
    assertThat(state(started.rest().events().getLast().path("result").path("statusUpdate")))
        .isEqualTo("TASK_STATE_CANCELED");
    assertThat(state(a.result("chat", "GetTask", id(taskId)))).isEqualTo("TASK_STATE_CANCELED");
    JsonNode again = b.rpc("chat", "CancelTask", id(taskId));
    assertThat(again.path("error").path("code").asInt()).isEqualTo(-32002);
  }

  @Test
  void anotherPrincipalSeesNothingOnEitherInstance() {
    model.json(OpenAiReplies.text("hello"));
    JsonNode task = a.result("chat", "SendMessage", A2aServerIT.userMessage("hi")).path("task");
    String taskId = task.path("id").asString();

    JsonNode foreign = b.rpc("chat", "GetTask", id(taskId), "Authorization", "Bearer someone-else");
    assertThat(foreign.path("error").path("code").asInt()).isEqualTo(-32001);
    assertThat(state(b.result("chat", "GetTask", id(taskId)))).isEqualTo("TASK_STATE_COMPLETED");
  }

  @Test
  void pushConfigsMadeOnOneInstanceAreListedOnTheOther() {
    model.json(OpenAiReplies.text("hello"));
    String taskId =
        a.result("chat", "SendMessage", A2aServerIT.userMessage("hi"))
            .path("task")
            .path("id")
            .asString();
    b.result(
        "chat",
        "CreateTaskPushNotificationConfig",
        "{\"taskId\":\"" + taskId + "\",\"id\":\"hook\",\"url\":\"https://hooks.example.com/x\"}");

    JsonNode listed =
        a.result("chat", "ListTaskPushNotificationConfigs", "{\"taskId\":\"" + taskId + "\"}");
    assertThat(listed.path("configs").get(0).path("url").asString())
        .isEqualTo("https://hooks.example.com/x");
  }

  @Test
  void aMessageSentAgainToTheOtherInstanceGetsTheFirstTask() throws Exception {
    CountDownLatch gate = model.gated(OpenAiReplies.delta("once"), OpenAiReplies.done());
    model.json(OpenAiReplies.text("a second run"));
    String message = A2aServerIT.userMessage("retried across instances");
    A2aFixture.LiveStream started = a.open("chat", "SendStreamingMessage", message);
    String taskId = started.next().path("result").path("task").path("id").asString();
    assertThat(model.awaitEndlessStarted()).isTrue();

    A2aFixture.LiveStream followed = b.open("chat", "SendStreamingMessage", message);
    assertThat(followed.next().path("result").path("task").path("id").asString()).isEqualTo(taskId);
    gate.countDown();
    assertThat(state(followed.rest().events().getLast().path("result").path("statusUpdate")))
        .isEqualTo("TASK_STATE_COMPLETED");
    started.rest();
    JsonNode again = b.result("chat", "SendMessage", message).path("task");
    assertThat(again.path("id").asString()).isEqualTo(taskId);
    assertThat(state(again)).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(model.requests()).hasSize(1);
  }

  /**
   * An instance that drains ends the streams following a task another instance runs, at once: it
   * has nothing of theirs to finish, and the client subscribes again elsewhere. Before, such a
   * stream held the drain to its limit (60 s here) and was then cut 3 s later without a word.
   */
  @Test
  void aDrainingInstanceEndsItsStreamsOfTasksTheOtherRunsAtOnce() throws Exception {
    CountDownLatch gate = model.gated(OpenAiReplies.delta("later"), OpenAiReplies.done());
    A2aFixture.LiveStream started =
        b.open("chat", "SendStreamingMessage", A2aServerIT.userMessage("slow"));
    String taskId = started.next().path("result").path("task").path("id").asString();
    assertThat(model.awaitEndlessStarted()).isTrue();
    String longDrain =
        project(connector())
            .replace("name: replicas", "name: replicas\nserver:\n  limits:\n    drain_timeout: 60");
    A2aFixture draining =
        A2aFixture.launch(
            third, longDrain, model.url(), Map.of("STATE_URL", storeUrl()), A2aServerIT.settings());
    A2aFixture.LiveStream followed = draining.open("chat", "SubscribeToTask", id(taskId));
    assertThat(state(followed.next().path("result").path("task"))).isEqualTo("TASK_STATE_WORKING");

    CompletableFuture<Void> closing = CompletableFuture.runAsync(draining::close);
    CompletableFuture<List<JsonNode>> rest =
        CompletableFuture.supplyAsync(() -> followed.rest().events());

    assertThat(rest.get(30, TimeUnit.SECONDS))
        .as("the task as stored; no status of its own")
        .hasSize(1);
    closing.get(30, TimeUnit.SECONDS);
    assertThat(state(b.result("chat", "GetTask", id(taskId)))).isEqualTo("TASK_STATE_WORKING");
    gate.countDown();
    assertThat(state(started.rest().events().getLast().path("result").path("statusUpdate")))
        .isEqualTo("TASK_STATE_COMPLETED");
  }
}
