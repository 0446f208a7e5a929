package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.connector.Connectors;
import dev.svc.json.Json;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.ProjectFixture;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The well-known agent card at the host root (A2A v1 §8.2, where a2a-java looks by default), over
 * real HTTP: the one agent's card, an index of card URLs for several agents, 404 for none.
 */
class A2aWellKnownCardIT {
  static final String ROOT_CARD = "/.well-known/agent-card.json";
  static final String NO_MODEL = "http://127.0.0.1:9"; // no test here asks a model

  static final String TOOLS =
      """
      == .svc
      name: shop
      version: 3.0.0
      server:
        allowed_hosts: [agents.example.com]
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/get_weather/config.terse
      description: Weather forecast for a city.
      use: db
      statement: SELECT {{ inputs.city }} AS city, 'sunny' AS forecast
      inputs:
        city:
          type: string
      """;

  static final String WEATHER =
      """
      == app/agents/weather/config.terse
      description: Answers questions about the weather.
      instruction: You are a weather assistant.
      model:
        provider: openai
        model: m
        options:
          base_url: {{MODEL}}/v1
      tool_access:
        mode: allow_list
        tools: [get_weather]
      """;

  static final String CHAT =
      """
      == app/agents/chat/config.terse
      instruction: You chat.
      model:
        provider: openai
        model: m
        options:
          base_url: {{MODEL}}/v1
      """;

  @TempDir Path directory;

  A2aFixture serve(String files) {
    return A2aFixture.launch(directory, files, NO_MODEL, Map.of(), A2aServerIT.settings());
  }

  @Test
  void withOneAgentTheHostRootServesThatAgentsCard() {
    try (A2aFixture svc = serve(TOOLS + WEATHER)) {
      HttpResponse<String> root = svc.get(ROOT_CARD, "A2A-Version", "1.0");
      HttpResponse<String> own = svc.get("/agent/weather" + ROOT_CARD, "A2A-Version", "1.0");
      assertThat(root.statusCode()).isEqualTo(200);
      assertThat(root.headers().firstValue("Content-Type").orElse(""))
          .startsWith("application/json");
      assertThat(root.body()).isEqualTo(own.body());
      JsonNode card = Json.MAPPER.readTree(root.body());
      assertThat(card.path("name").asString()).isEqualTo("weather");
      assertThat(card.path("supportedInterfaces").get(0).path("url").asString())
          .isEqualTo(svc.url() + "/agent/weather");
    }
  }

  @Test
  void theRootCardFollowsForwardedHeaders() {
    try (A2aFixture svc = serve(TOOLS + WEATHER)) {
      JsonNode card =
          Json.MAPPER.readTree(
              svc.get(
                      ROOT_CARD,
                      "X-Forwarded-Proto",
                      "https",
                      "X-Forwarded-Host",
                      "agents.example.com")
                  .body());
      assertThat(card.path("supportedInterfaces").get(0).path("url").asString())
          .isEqualTo("https://agents.example.com/agent/weather");
    }
  }

  @Test
  void withSeveralAgentsTheHostRootIs404NamingEachCardUrl() {
    try (A2aFixture svc = serve(TOOLS + WEATHER + CHAT)) {
      HttpResponse<String> root = svc.get(ROOT_CARD);
      assertThat(root.statusCode()).isEqualTo(404);
      assertThat(root.headers().firstValue("Content-Type").orElse(""))
          .startsWith("application/json");
      JsonNode body = Json.MAPPER.readTree(root.body());
      assertThat(body.path("error").asString()).contains("2 agents").contains("/agent/<name>");
      JsonNode agents = body.path("agents");
      assertThat(agents.size()).isEqualTo(2);
      assertThat(agents.get(0).path("name").asString()).isEqualTo("chat");
      assertThat(agents.get(0).path("card").asString())
          .isEqualTo(svc.url() + "/agent/chat" + ROOT_CARD);
      assertThat(agents.get(1).path("name").asString()).isEqualTo("weather");
      assertThat(agents.get(1).path("card").asString())
          .isEqualTo(svc.url() + "/agent/weather" + ROOT_CARD);
      // the URLs it names answer the cards
      for (JsonNode agent : agents) {
        String path = agent.path("card").asString().substring(svc.url().length());
        HttpResponse<String> card = svc.get(path);
        assertThat(card.statusCode()).isEqualTo(200);
        assertThat(Json.MAPPER.readTree(card.body()).path("name").asString())
            .isEqualTo(agent.path("name").asString());
      }
    }
  }

  @Test
  void withoutAgentsTheHostRootIsAPlain404() {
    try (A2aFixture svc = serve(TOOLS)) {
      HttpResponse<String> root = svc.get(ROOT_CARD);
      assertThat(root.statusCode()).isEqualTo(404);
      JsonNode body = Json.MAPPER.readTree(root.body());
      assertThat(body.path("error").asString()).contains("no agents");
      assertThat(body.has("agents")).isFalse();
    }
  }

  @Test
  void theRootCardKeepsTheOriginPolicyAndCorsOfTheAgentRoutes() throws Exception {
    try (A2aFixture svc = serve(TOOLS + WEATHER)) {
      HttpResponse<String> allowed = svc.get(ROOT_CARD, "Origin", "http://localhost:5173");
      assertThat(allowed.statusCode()).isEqualTo(200);
      assertThat(allowed.headers().firstValue("Access-Control-Allow-Origin"))
          .contains("http://localhost:5173");
      HttpResponse<String> foreign = svc.get(ROOT_CARD, "Origin", "https://app.example.com");
      assertThat(foreign.statusCode()).isEqualTo(403);
      assertThat(foreign.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
      assertThat(foreign.body()).doesNotContain("weather");
      var preflight =
          HttpRequest.newBuilder(URI.create(svc.url() + ROOT_CARD))
              .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
              .header("Origin", "http://localhost:5173")
              .header("Access-Control-Request-Method", "GET")
              .build();
      HttpResponse<String> answer = A2aFixture.send(preflight);
      assertThat(answer.statusCode()).isEqualTo(204);
      assertThat(answer.headers().firstValue("Access-Control-Allow-Origin"))
          .contains("http://localhost:5173");
    }
  }

  @Test
  void theRootCardIsItsOwnRouteInMetrics() {
    try (A2aFixture svc = serve(TOOLS + WEATHER)) {
      svc.get(ROOT_CARD);
      assertThat(svc.get("/metrics").body()).contains("http_route=\"" + ROOT_CARD + "\"");
    }
  }

  @Test
  void theRootCardFollowsReloads() {
    Model one =
        ProjectFixture.model(
            directory.resolve("a"), (TOOLS + WEATHER).replace("{{MODEL}}", NO_MODEL));
    Model two =
        ProjectFixture.model(
            directory.resolve("b"), (TOOLS + WEATHER + CHAT).replace("{{MODEL}}", NO_MODEL));
    Instance instance =
        Instance.launch(
            one,
            new Instance.Options(
                Environment.of(Map.of()), directory, "127.0.0.1", 0, true, Connectors::open));
    try (A2aFixture svc = A2aFixture.at(instance.baseUrl(), instance)) {
      assertThat(svc.get(ROOT_CARD).statusCode()).isEqualTo(200);
      instance.reload(two, Set.of());
      HttpResponse<String> root = svc.get(ROOT_CARD);
      assertThat(root.statusCode()).isEqualTo(404);
      assertThat(Json.MAPPER.readTree(root.body()).path("agents").size()).isEqualTo(2);
    }
  }

  @Test
  void theRootCardIsOnlyRead() {
    try (A2aFixture svc = serve(TOOLS + WEATHER)) {
      HttpResponse<String> head =
          A2aFixture.send(
              HttpRequest.newBuilder(URI.create(svc.url() + ROOT_CARD))
                  .method("HEAD", HttpRequest.BodyPublishers.noBody())
                  .build());
      assertThat(head.statusCode()).isEqualTo(200);
      HttpResponse<String> post = svc.post(ROOT_CARD, "{}");
      assertThat(post.statusCode()).isEqualTo(405);
      assertThat(post.headers().firstValue("Allow")).contains("GET");
    }
  }

  @Test
  void otherWellKnownPathsStay404() {
    try (A2aFixture svc = serve(TOOLS + WEATHER)) {
      assertThat(svc.get("/.well-known/agent.json").statusCode()).isEqualTo(404);
      assertThat(svc.get(ROOT_CARD + "/x").statusCode()).isEqualTo(404);
    }
  }
}
