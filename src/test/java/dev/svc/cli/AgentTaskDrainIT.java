package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.ScriptedModelServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM while an agent task runs without a request holding it ({@code returnImmediately}, its
 * client following it by push notifications): the drain gives the task the drain limit as it gives
 * a request in flight, and the task's final state still reaches the client's webhook before the
 * process exits. Before, the task was canceled the moment the drain began (the drain waited only
 * for requests) and the push notifications still queued were dropped as the process stopped.
 */
class AgentTaskDrainIT {
  @TempDir Path dir;

  @Test
  void aTaskSentWithReturnImmediatelyFinishesDuringTheDrainAndItsFinalStateIsPushed()
      throws Exception {
    try (ScriptedModelServer model = ScriptedModelServer.start();
        ScriptedModelServer receiver = ScriptedModelServer.start()) {
      for (int i = 0; i < 10; i++) {
        receiver.json("{}");
      }
      CountDownLatch gate = model.gatedJson(OpenAiReplies.text("finished"));
      Path project = slowAgentProject("draining-agents", 60, model);
      try (SvcProcess svc = SvcProcess.starting(dir, project, "--log-format", "json")) {
        send(svc, receiver);
        assertThat(model.awaitEndlessStarted()).isTrue();

        svc.terminate();
        // the model answers once the drain waits for the task (or once svc has already exited,
        // as it did before: then the task was canceled)
        awaitLogged(svc, "waiting for the agent tasks still running");
        gate.countDown();
        int exit = svc.awaitExit(Duration.ofSeconds(30));

        assertThat(states(receiver))
            .as("pushed: %s\n%s", receiver.requests(), svc.err())
            .last()
            .isEqualTo("TASK_STATE_COMPLETED");
        assertThat(exit).isZero();
      }
    }
  }

  @Test
  void theCancellationOfATaskEndedAtTheDrainLimitReachesASlowWebhookBeforeTheProcessExits()
      throws Exception {
    try (ScriptedModelServer model = ScriptedModelServer.start();
        ScriptedModelServer receiver = ScriptedModelServer.start()) {
      // the webhook holds its answer to the first notification; the later ones queue behind it
      CountDownLatch webhook = receiver.gatedJson("{}");
      for (int i = 0; i < 10; i++) {
        receiver.json("{}");
      }
      model.endless(false);
      Path project = slowAgentProject("draining-pushes", 1, model);
      try (SvcProcess svc = SvcProcess.starting(dir, project, "--log-format", "json")) {
        send(svc, receiver);
        assertThat(model.awaitEndlessStarted()).isTrue();
        assertThat(receiver.awaitEndlessStarted()).isTrue();

        svc.terminate();
        awaitLogged(svc, "canceling the agent tasks still running");
        webhook.countDown();
        int exit = svc.awaitExit(Duration.ofSeconds(30));

        assertThat(states(receiver))
            .as("pushed: %s\n%s", receiver.requests(), svc.err())
            .last()
            .isEqualTo("TASK_STATE_CANCELED");
        assertThat(exit).isZero();
      }
    }
  }

  /** Sends a task that answers at once and pushes its states to {@code receiver}'s /hook. */
  private static void send(SvcProcess svc, ScriptedModelServer receiver) throws Exception {
    String body =
        """
        {"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{
          "message":{"role":"ROLE_USER","messageId":"m1","parts":[{"text":"take your time"}]},
          "configuration":{"returnImmediately":true,
            "taskPushNotificationConfig":{"url":"%s/hook","token":"t"}}}}
        """
            .formatted(receiver.url());
    HttpResponse<String> sent =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(svc.baseUrl() + "/agent/slow"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(sent.statusCode()).isEqualTo(200);
    assertThat(
            Json.MAPPER
                .readTree(sent.body())
                .path("result")
                .path("task")
                .path("status")
                .path("state")
                .asString())
        .isEqualTo("TASK_STATE_SUBMITTED");
  }

  /** The task states the webhook was sent, in order. */
  private static List<String> states(ScriptedModelServer receiver) {
    List<String> states = new ArrayList<>();
    for (ScriptedModelServer.Recorded push : receiver.requests()) {
      states.add(push.body().path("task").path("status").path("state").asString());
    }
    return states;
  }

  /** A project of one agent, {@code slow}, on the scripted model, pushing to loopback. */
  Path slowAgentProject(String name, int drainTimeoutSeconds, ScriptedModelServer model) {
    return ProjectFixture.write(
        dir.resolve("project"),
        """
        == .svc
        name: %s
        server:
          limits:
            drain_timeout: %d
        agents:
          push_notifications:
            allow_private_networks: true
        == app/agents/slow/config.terse
        instruction: You answer.
        model:
          provider: openai_compatible
          model: small
          options:
            base_url: %s/v1
        """
            .formatted(name, drainTimeoutSeconds, model.url()));
  }

  /** Waits until svc has logged {@code text}, or has exited. */
  static void awaitLogged(SvcProcess svc, String text) throws Exception {
    while (svc.alive() && !svc.err().contains(text)) {
      Thread.sleep(20);
    }
  }
}
