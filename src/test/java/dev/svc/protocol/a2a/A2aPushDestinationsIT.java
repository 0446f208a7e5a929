package dev.svc.protocol.a2a;

import static dev.svc.protocol.a2a.A2aServerIT.userMessage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.net.HostResolver;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ScriptedModelServer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Where push notifications may go, over real HTTP with real local receivers: URLs are checked when
 * a config is created, and again, name resolved anew, at every delivery.
 */
class A2aPushDestinationsIT {
  /** A project with one agent; {@code {{PUSH}}} is replaced by the push settings of a test. */
  static final String PROJECT =
      """
      == .svc
      name: hooks
      agents:
        tool_access:
          mode: allow_none
      {{PUSH}}
      == app/agents/chat/config.terse
      instruction: You chat.
      model:
        provider: openai_compatible
        model: small
        options:
          base_url: {{MODEL}}/v1
      """;

  @TempDir Path directory;
  ScriptedModelServer model;
  A2aFixture svc;

  @BeforeEach
  void startModel() {
    model = ScriptedModelServer.start();
  }

  @AfterEach
  void stop() {
    if (svc != null) {
      svc.close();
    }
    model.close();
  }

  void launch(String push) {
    launch(push, HostResolver.SYSTEM);
  }

  void launch(String push, HostResolver hosts) {
    A2aServer.Settings defaults = A2aServerIT.settings();
    svc =
        A2aFixture.launch(
            directory,
            PROJECT.replace("{{PUSH}}", push),
            model.url(),
            Map.of(),
            new A2aServer.Settings(
                defaults.keepAlive(),
                defaults.store(),
                defaults.retry(),
                Clock.tick(Clock.systemUTC(), Duration.ofMillis(1)),
                hosts));
  }

  /** A finished task to add configs to. */
  String task() {
    model.json(OpenAiReplies.text("ok"));
    return svc.result("chat", "SendMessage", userMessage("hi")).path("task").path("id").asString();
  }

  JsonNode create(String taskId, String url) {
    return svc.rpc(
        "chat",
        "CreateTaskPushNotificationConfig",
        "{\"taskId\":\"" + taskId + "\",\"url\":" + Json.MAPPER.writeValueAsString(url) + "}");
  }

  static String withPush(String message, String url) {
    return message.replace(
        "\"configuration\":{}",
        "\"configuration\":{\"taskPushNotificationConfig\":{\"url\":"
            + Json.MAPPER.writeValueAsString(url)
            + ",\"token\":\"tok\"}}");
  }

  @Test
  void urlsOfOtherSchemesAreRefused() {
    launch("");
    String id = task();
    for (String url :
        List.of(
            "ftp://files.example.com/hook",
            "file:///etc/passwd",
            "javascript:alert(1)",
            "gopher://127.0.0.1:6379/_FLUSHALL",
            "/relative/hook",
            "http://user:secret@hooks.example.com/")) {
      JsonNode error = create(id, url).path("error");
      assertThat(error.path("code").asInt()).as(url).isEqualTo(-32602);
      assertThat(error.path("message").asString())
          .as(url)
          .containsAnyOf("must be an absolute http(s) URL", "must not hold credentials");
    }
  }

  @Test
  void nonPublicAddressesAreRefusedWhenAConfigIsCreatedAndSayWhy() {
    launch("");
    String id = task();
    Map<String, String> refused =
        Map.ofEntries(
            Map.entry("http://127.0.0.1:9/hook", "127.0.0.1, a loopback address"),
            Map.entry("http://[::1]:9/hook", "::1, a loopback address"),
            Map.entry("http://localhost:9/hook", "localhost resolves to"),
            Map.entry("http://10.1.2.3/hook", "10.1.2.3, a private address"),
            Map.entry("https://192.168.0.10/hook", "192.168.0.10, a private address"),
            Map.entry("http://100.64.1.1/", "a shared (CGNAT) address"),
            Map.entry("http://[fd12::1]/", "a private address"),
            Map.entry("http://169.254.169.254/latest/meta-data/", "a cloud metadata address"),
            Map.entry("http://[fd00:ec2::254]/", "a cloud metadata address"),
            Map.entry("http://metadata.google.internal/", "is a cloud metadata service"),
            Map.entry("http://0.0.0.0:9/", "an unspecified address"),
            Map.entry("http://224.0.0.1/", "a multicast or broadcast address"),
            Map.entry("http://[::ffff:127.0.0.1]:9/", "a loopback address"),
            Map.entry("http://2130706433:9/", "2130706433, a loopback address"));
    refused.forEach((url, why) -> {
      JsonNode error = create(id, url).path("error");
      assertThat(error.path("code").asInt()).as(url).isEqualTo(-32602);
      assertThat(error.path("message").asString())
          .as(url)
          .startsWith("Invalid params: `url` is refused: ")
          .contains(why);
    });
    assertThat(
            svc.result("chat", "ListTaskPushNotificationConfigs", "{\"taskId\":\"" + id + "\"}")
                .path("configs"))
        .isEmpty();

    JsonNode withMessage =
        svc.rpc("chat", "SendMessage", withPush(userMessage("again"), "http://127.0.0.1:9/"));
    assertThat(withMessage.path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(withMessage.path("error").path("message").asString())
        .contains("`configuration.taskPushNotificationConfig.url` is refused: 127.0.0.1");
    assertThat(model.requests()).as("no task was started").hasSize(1);
    assertThat(svc.result("chat", "ListTasks", "{}").path("totalSize").asInt()).isEqualTo(1);
  }

  @Test
  void allowPrivateNetworksLetsALocalReceiverGetTheTaskButNotMetadata() throws Exception {
    launch("  push_notifications:\n    allow_private_networks: true");
    try (PushReceiver receiver = PushReceiver.start("127.0.0.1", 0)) {
      model.json(OpenAiReplies.text("pushed"));
      String id =
          svc.result("chat", "SendMessage", withPush(userMessage("go"), receiver.url() + "/hook"))
              .path("task")
              .path("id")
              .asString();

      PushReceiver.Received first = receiver.await();
      assertThat(first.path()).isEqualTo("/hook");
      assertThat(first.header("X-A2A-Notification-Token")).isEqualTo("tok");
      assertThat(first.body().path("task").path("id").asString()).isEqualTo(id);
      assertThat(create(id, "http://169.254.169.254/").path("error").path("message").asString())
          .contains("a cloud metadata address");
      assertThat(create(id, "http://[::1]:9/hook").has("result")).isTrue();
    }
  }

  @Test
  void allowedNetworksAllowExactlyTheListedAddresses() {
    launch("  push_notifications:\n    allowed_networks: [127.0.0.1, 169.254.169.254/32]");
    String id = task();
    assertThat(create(id, "http://127.0.0.1:9/hook").has("result")).isTrue();
    assertThat(create(id, "http://169.254.169.254/hook").has("result")).isTrue();
    assertThat(create(id, "http://127.0.0.2:9/hook").path("error").path("message").asString())
        .contains("127.0.0.2, a loopback address");
    assertThat(create(id, "http://10.0.0.1/hook").path("error").path("message").asString())
        .contains("10.0.0.1, a private address");
  }

  @Test
  void aRedirectIsNotFollowed() throws Exception {
    launch("  push_notifications:\n    allowed_networks: [127.0.0.1]");
    try (PushReceiver target = PushReceiver.start("127.0.0.1", 0);
        PushReceiver redirecting =
            PushReceiver.start("127.0.0.1", 0, 302, Map.of("Location", target.url() + "/stolen"))) {
      model.json(OpenAiReplies.text("done"));
      svc.result("chat", "SendMessage", withPush(userMessage("go"), redirecting.url() + "/hook"));

      List<String> states = new java.util.ArrayList<>();
      while (!states.contains("TASK_STATE_COMPLETED")) {
        states.add(redirecting.await().body().path("task").path("status").path("state").asString());
      }
      assertThat(states)
          .as("each status change once: a redirect is a final answer, not retried")
          .containsExactly("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED");
      assertThat(target.received()).as("the redirect target is never called").isEmpty();
    }
  }

  @Test
  void aNameIsResolvedAndCheckedAgainAtEveryDeliveryAndOnlyTheCheckedAddressIsCalled()
      throws Exception {
    try (PushReceiver allowed = PushReceiver.start("127.0.0.1", 0);
        PushReceiver rebound = PushReceiver.start("127.0.0.2", allowed.port())) {
      // hooks.test resolves to the allowed address for the check at creation and the first
      // delivery, then to another one (DNS rebinding)
      AtomicInteger lookups = new AtomicInteger();
      HostResolver rebinding =
          host -> {
            if (!host.equals("hooks.test")) {
              throw new UnknownHostException(host);
            }
            return List.of(
                InetAddress.ofLiteral(lookups.incrementAndGet() <= 2 ? "127.0.0.1" : "127.0.0.2"));
          };
      launch("  push_notifications:\n    allowed_networks: [127.0.0.1]", rebinding);
      model.json(OpenAiReplies.text("done"));

      String id =
          svc.result(
                  "chat",
                  "SendMessage",
                  withPush(userMessage("go"), "http://hooks.test:" + allowed.port() + "/hook"))
              .path("task")
              .path("id")
              .asString();

      PushReceiver.Received first = allowed.await();
      assertThat(first.body().path("task").path("status").path("state").asString())
          .isEqualTo("TASK_STATE_SUBMITTED");
      assertThat(first.header("Host")).isEqualTo("hooks.test:" + allowed.port());
      long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (lookups.get() < 4 && System.nanoTime() < end) {
        Thread.sleep(20); // the WORKING and COMPLETED deliveries resolve the name again
      }
      assertThat(lookups.get()).as("one lookup per delivery, none to connect").isEqualTo(4);
      Thread.sleep(300); // a wrong implementation would connect right after the lookup
      assertThat(allowed.received()).hasSize(1);
      assertThat(rebound.received()).as("the rebound address is never called").isEmpty();
      assertThat(svc.result("chat", "GetTask", "{\"id\":\"" + id + "\"}").path("id").asString())
          .isEqualTo(id);
    }
  }

  @Test
  void aTokenOrCredentialsThatWouldBreakTheRequestAreRefused() {
    launch("");
    String id = task();
    JsonNode token =
        svc.rpc(
            "chat",
            "CreateTaskPushNotificationConfig",
            "{\"taskId\":\""
                + id
                + "\",\"url\":\"https://hooks.example.com/\",\"token\":\"t\\r\\nX-Evil: 1\"}");
    assertThat(token.path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(token.path("error").path("message").asString()).contains("`params.token`");
    JsonNode credentials =
        svc.rpc(
            "chat",
            "CreateTaskPushNotificationConfig",
            "{\"taskId\":\""
                + id
                + "\",\"url\":\"https://hooks.example.com/\",\"authentication\":{\"scheme\":\"Bearer\",\"credentials\":\"c\\n\"}}");
    assertThat(credentials.path("error").path("code").asInt()).isEqualTo(-32602);
  }
}
