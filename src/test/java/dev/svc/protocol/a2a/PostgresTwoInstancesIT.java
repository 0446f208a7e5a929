package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.TcpProxy;
import dev.svc.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/** Two instances sharing tasks through PostgreSQL; and the database going away under them. */
class PostgresTwoInstancesIT extends TwoInstancesContract {
  @RegisterExtension static final TestDatabase db = TestDatabase.postgres();

  @Override
  String storeUrl() {
    return db.connectionString();
  }

  @Override
  String connector() {
    return "postgres";
  }

  @Test
  void aDatabaseThatGoesAwayIsAPreciseErrorAndServingGoesOnUntilItIsBack() throws Exception {
    try (TcpProxy proxy = TcpProxy.to(db.host(), db.port())) {
      try (A2aFixture c = throughProxy(proxy)) {
        model.json(OpenAiReplies.text("hello"));
        String taskId =
            c.result("chat", "SendMessage", A2aServerIT.userMessage("hi"))
                .path("task")
                .path("id")
                .asString();

        proxy.cut(); // every connection dropped, new ones refused

        JsonNode failed = c.rpc("chat", "GetTask", id(taskId));
        assertThat(failed.path("error").path("code").asInt()).isEqualTo(-32603);
        assertThat(failed.path("error").path("message").asString())
            .contains("task store is unavailable")
            .doesNotContain(db.name());
        assertThat(failed.path("error").path("data").get(0).path("reason").asString())
            .isEqualTo("TASK_STORE_UNAVAILABLE");
        assertThat(failed.path("error").path("data").get(1).has("requestId")).isTrue();
        JsonNode send = c.rpc("chat", "SendMessage", A2aServerIT.userMessage("again"));
        assertThat(send.path("error").path("code").asInt()).isEqualTo(-32603);
        assertThat(c.get("/agent/chat/.well-known/agent-card.json").statusCode())
            .as("the server still serves")
            .isEqualTo(200);

        proxy.resume();
        assertThat(state(c.result("chat", "GetTask", id(taskId))))
            .isEqualTo("TASK_STATE_COMPLETED");
      }
    }
  }

  @Test
  void aTaskThatEndsWhileTheDatabaseIsAwayIsSavedOnceItIsBackNotMarkedFailed() throws Exception {
    // before: the final save failed, the task was no longer owned, its lease expired and it was
    // marked failed ("its instance stopped") on the same live instance: its answer lost
    try (TcpProxy proxy = TcpProxy.to(db.host(), db.port())) {
      try (A2aFixture c = throughProxy(proxy)) {
        CountDownLatch gate =
            model.gated(
                OpenAiReplies.delta("All "), OpenAiReplies.delta("done."), OpenAiReplies.done());
        A2aFixture.LiveStream started =
            c.open("chat", "SendStreamingMessage", A2aServerIT.userMessage("work"));
        String taskId = started.next().path("result").path("task").path("id").asString();
        assertThat(model.awaitEndlessStarted()).isTrue();

        proxy.cut();
        gate.countDown(); // the run ends while its store is out of reach
        assertThat(state(started.rest().events().getLast().path("result").path("statusUpdate")))
            .isEqualTo("TASK_STATE_COMPLETED");
        Thread.sleep(3_000);
        proxy.resume();

        // the lease is 5 s: well past it, the task is completed with its answer, on both sides
        long until = System.currentTimeMillis() + 15_000;
        JsonNode seen = a.result("chat", "GetTask", id(taskId));
        while (!state(seen).equals("TASK_STATE_COMPLETED") && System.currentTimeMillis() < until) {
          Thread.sleep(200);
          seen = a.result("chat", "GetTask", id(taskId));
        }
        assertThat(state(seen)).as(seen.toString()).isEqualTo("TASK_STATE_COMPLETED");
        Thread.sleep(6_000);
        JsonNode later = c.result("chat", "GetTask", id(taskId));
        assertThat(state(later)).as(later.toString()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(later.path("artifacts").get(0).path("parts").get(0).path("text").asString())
            .isEqualTo("All done.");
      }
    }
  }

  @Test
  void aStoreThatStopsAnsweringDoesNotHoldTheStopForEachTaskCanceledAtTheDrainLimit()
      throws Exception {
    // before: the tasks still running at the drain limit were canceled one after the other, each
    // waiting for the frozen store's time-outs (10 s to save, 10 s to share): ~60 s for three
    for (int i = 0; i < 3; i++) {
      model.endless(true);
    }
    try (TcpProxy proxy = TcpProxy.to(db.host(), db.port())) {
      String url = "postgresql://" + db.user() + "@127.0.0.1:" + proxy.port() + "/" + db.name();
      A2aFixture c =
          A2aFixture.launch(
              first.resolve("c"),
              project("postgres")
                  .replace(
                      "name: replicas", "name: replicas\nserver:\n  limits:\n    drain_timeout: 1"),
              model.url(),
              Map.of("STATE_URL", url),
              A2aServerIT.settings());
      List<A2aFixture.LiveStream> streams = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        streams.add(c.open("chat", "SendStreamingMessage", A2aServerIT.userMessage("run " + i)));
        streams.getLast().next();
        assertThat(model.awaitEndlessStarted()).isTrue();
      }

      proxy.freeze();
      CompletableFuture<Void> closing = CompletableFuture.runAsync(c::close);

      closing.get(30, TimeUnit.SECONDS);
    }
  }

  /** A third instance whose store connections go through {@code proxy}, to be cut and resumed. */
  private A2aFixture throughProxy(TcpProxy proxy) {
    String url = "postgresql://" + db.user() + "@127.0.0.1:" + proxy.port() + "/" + db.name();
    return A2aFixture.launch(
        first.resolve("c"),
        project("postgres"),
        model.url(),
        Map.of("STATE_URL", url),
        A2aServerIT.settings());
  }
}
