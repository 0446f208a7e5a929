package dev.svc.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.log.Level;
import dev.svc.protocol.a2a.A2aServer;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.GeminiReplies;
import dev.svc.testing.GoogleServiceAccount;
import dev.svc.testing.ScriptedModelServer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Gemini and Vertex AI agents over A2A, against a scripted Gemini server. */
class GeminiAgentsIT {
  static final String PROJECT =
      """
      == .svc
      name: shop
      agents:
        tool_access:
          mode: allow_list
          tools: [get_weather]
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/get_weather/config.terse
      description: Weather forecast for a city.
      use: db
      statement: SELECT {{ inputs.city }} AS city, {{ inputs.days }} AS days, 'sunny' AS forecast
      inputs:
        city:
          type: string
          description: The city.
        days:
          type: int
          default: "3"
      == app/tools/drop_tables/config.terse
      description: Deletes every table.
      use: db
      statement: DELETE FROM weather WHERE city = {{ inputs.city }}
      inputs:
        city:
          type: string
      == app/agents/gem/config.terse
      instruction: You are Gem.
      model:
        provider: Google-AI-Studio
        model: gemini-2.5-flash
        options:
          base_url: {{MODEL}}/v1beta
          temperature: 0.5
          max_tokens: 64
          topK: 40
      == app/agents/vx/config.terse
      instruction: You are on Vertex.
      model:
        provider: vertex_ai
        model: gemini-2.5-pro
        options:
          base_url: {{MODEL}}/v1
          project: my-proj
          location: europe-west4
      == app/agents/vkey/config.terse
      instruction: You are on Vertex express.
      model:
        provider: vertex
        model: gemini-2.5-flash
        options:
          base_url: {{MODEL}}/v1
          api_key: vx-key
      == app/agents/venv/config.terse
      instruction: Vertex from the environment.
      model:
        provider: vertex
        model: gemini-2.5-flash
        options:
          base_url: {{MODEL}}/v1
      """;

  @TempDir Path directory;
  ScriptedModelServer model;
  A2aFixture svc;

  @BeforeEach
  void start() throws Exception {
    model = ScriptedModelServer.start();
    Map<String, String> env = new HashMap<>();
    env.put("GOOGLE_API_KEY", "env-key");
    env.put("GOOGLE_CLOUD_PROJECT", "env-proj");
    env.put("GOOGLE_CLOUD_REGION", "asia-east1");
    env.put(
        "GOOGLE_APPLICATION_CREDENTIALS",
        GoogleServiceAccount.write(directory.resolve("sa.json"), model.url() + "/token")
            .toString());
    svc =
        A2aFixture.launch(
            directory.resolve("project"), PROJECT, model.url(), env, A2aServer.Settings.defaults());
  }

  @AfterEach
  void stop() {
    svc.close();
    model.close();
  }

  /** A new message: each with its own messageId (the same id twice is one message, retried). */
  static String message(String text) {
    return "{\"message\":{\"messageId\":\"m-"
        + UUID.randomUUID()
        + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\""
        + text
        + "\"}]}}";
  }

  static String state(JsonNode task) {
    return task.path("status").path("state").asString();
  }

  @Test
  void geminiCallsFunctionsAndReplaysThoughtSignatures() {
    model.json(GeminiReplies.functionCall("get_weather", "{\"city\":\"Paris\"}", "c2lnbmF0dXJl"));
    model.json(GeminiReplies.text("Sunny in Paris."));

    JsonNode task = svc.result("gem", "SendMessage", message("Paris?")).path("task");

    assertThat(state(task)).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(task.path("artifacts").get(0).path("parts").get(0).path("text").asString())
        .isEqualTo("Sunny in Paris.");
    ScriptedModelServer.Recorded first = model.request(0);
    assertThat(first.path()).isEqualTo("/v1beta/models/gemini-2.5-flash:generateContent");
    assertThat(first.header("x-goog-api-key")).isEqualTo("env-key");
    JsonNode body = first.body();
    assertThat(body.path("systemInstruction").path("parts").get(0).path("text").asString())
        .isEqualTo("You are Gem.");
    assertThat(body.path("contents").get(0).path("role").asString()).isEqualTo("user");
    assertThat(body.path("contents").get(0).path("parts").get(0).path("text").asString())
        .isEqualTo("Paris?");
    JsonNode declarations = body.path("tools").get(0).path("functionDeclarations");
    assertThat(declarations.valueStream().map(d -> d.path("name").asString()))
        .as("inherit gives the root's allow_list")
        .containsExactly("get_weather");
    JsonNode parameters = declarations.get(0).path("parameters");
    assertThat(parameters.has("additionalProperties")).isFalse();
    assertThat(parameters.path("required").toString()).isEqualTo("[\"city\"]");
    assertThat(parameters.path("properties").path("days").path("type").asString())
        .isEqualTo("integer");
    assertThat(parameters.path("properties").path("days").path("description").asString())
        .isEqualTo("(default: 3)");
    JsonNode config = body.path("generationConfig");
    assertThat(config.path("temperature").asDouble()).isEqualTo(0.5);
    assertThat(config.path("maxOutputTokens").asInt()).isEqualTo(64);
    assertThat(config.path("topK").asInt()).isEqualTo(40);
    assertThat(config.has("base_url")).isFalse();

    JsonNode contents = model.request(1).body().path("contents");
    JsonNode call = contents.get(1);
    assertThat(call.path("role").asString()).isEqualTo("model");
    assertThat(call.path("parts").get(0).path("functionCall").path("name").asString())
        .isEqualTo("get_weather");
    assertThat(call.path("parts").get(0).path("thoughtSignature").asString())
        .isEqualTo("c2lnbmF0dXJl");
    JsonNode response = contents.get(2).path("parts").get(0).path("functionResponse");
    assertThat(contents.get(2).path("role").asString()).isEqualTo("user");
    assertThat(response.path("name").asString()).isEqualTo("get_weather");
    assertThat(response.path("response").path("output").get(0).path("forecast").asString())
        .isEqualTo("sunny");
  }

  @Test
  void geminiStreamsTextIntoArtifactChunks() {
    model.sse(
        "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Hello \"}]}}]}",
        "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"there\"}]},\"finishReason\":\"STOP\"}]}");

    A2aFixture.Sse sse = svc.stream("gem", "SendStreamingMessage", message("hi"));

    ScriptedModelServer.Recorded request = model.request(0);
    assertThat(request.path()).isEqualTo("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
    assertThat(request.query()).isEqualTo("alt=sse");
    List<String> chunks =
        sse.events().stream()
            .map(e -> e.path("result").path("artifactUpdate"))
            .filter(a -> !a.isMissingNode())
            .map(a -> a.path("artifact").path("parts").get(0).path("text").asString())
            .toList();
    assertThat(chunks).containsExactly("Hello ", "there");
    assertThat(state(sse.events().getLast().path("result").path("statusUpdate")))
        .isEqualTo("TASK_STATE_COMPLETED");
  }

  @Test
  void geminiErrorsAndBlockedPromptsFailTheTask() {
    model.error(
        400,
        "{\"error\":{\"code\":400,\"message\":\"API key not valid.\",\"status\":\"INVALID_ARGUMENT\"}}");
    model.json("{\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}");

    JsonNode refused = svc.result("gem", "SendMessage", message("a")).path("task");
    JsonNode blocked = svc.result("gem", "SendMessage", message("b")).path("task");

    assertThat(state(refused)).isEqualTo("TASK_STATE_FAILED");
    assertThat(refused.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("gemini returned HTTP 400: API key not valid.");
    assertThat(blocked.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("gemini blocked the request (SAFETY)");
  }

  @Test
  void aFunctionOutsideTheInheritedAccessIsRefused() {
    model.json(GeminiReplies.functionCall("drop_tables", "{\"city\":\"x\"}", null));
    model.json(GeminiReplies.text("I may not."));

    svc.result("gem", "SendMessage", message("drop"));

    JsonNode response =
        model
            .request(1)
            .body()
            .path("contents")
            .get(2)
            .path("parts")
            .get(0)
            .path("functionResponse");
    assertThat(response.path("response").path("error").asString())
        .contains("not available to this agent")
        .doesNotContain("no such table");
  }

  @Test
  void vertexUsesAnOAuthTokenFromTheServiceAccountAndTheRegionalPath() {
    model.json(
        "{\"access_token\":\"ya29.test-token\",\"expires_in\":3600,\"token_type\":\"Bearer\"}");
    model.json(GeminiReplies.text("From Vertex."));

    JsonNode task = svc.result("vx", "SendMessage", message("hi")).path("task");

    assertThat(state(task)).isEqualTo("TASK_STATE_COMPLETED");
    ScriptedModelServer.Recorded token = model.request(0);
    assertThat(token.path()).isEqualTo("/token");
    assertThat(token.body().asString()).contains("grant_type=urn");
    ScriptedModelServer.Recorded call = model.request(1);
    assertThat(call.path())
        .isEqualTo(
            "/v1/projects/my-proj/locations/europe-west4/publishers/google/models/gemini-2.5-pro:generateContent");
    assertThat(call.header("Authorization")).isEqualTo("Bearer ya29.test-token");
    assertThat(call.header("x-goog-api-key")).isEmpty();
    assertThat(call.body().path("systemInstruction").path("parts").get(0).path("text").asString())
        .isEqualTo("You are on Vertex.");
  }

  /**
   * Google's auth library puts the token endpoint's whole answer in its message, and an endpoint
   * may echo the request: a service account's signed assertion, the refresh token and client secret
   * of user credentials.
   */
  @Test
  void aVertexTokenErrorRepeatsOnlyItsErrorCodeToTheClientAndTheLog() {
    model.error(
        400,
        "{\"error\":\"invalid_grant\",\"error_description\":\"you sent"
            + " client_secret=LeakCanarySecret&refresh_token=LeakCanaryRefresh\"}");

    JsonNode task;
    String log;
    try (CapturedLog captured = CapturedLog.at(Level.DEBUG)) {
      task = svc.result("vx", "SendMessage", message("hi")).path("task");
      log = captured.text();
    }

    assertThat(state(task)).isEqualTo("TASK_STATE_FAILED");
    assertThat(task.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo(
            "vertex: could not get an access token: the token endpoint answered HTTP 400, error"
                + " `invalid_grant`");
    assertThat(log).contains("invalid_grant").doesNotContain("LeakCanary");
  }

  @Test
  void vertexWithAnApiKeyUsesTheExpressPath() {
    model.json(GeminiReplies.text("Express."));

    svc.result("vkey", "SendMessage", message("hi"));

    ScriptedModelServer.Recorded call = model.request(0);
    assertThat(call.path())
        .isEqualTo("/v1/publishers/google/models/gemini-2.5-flash:generateContent");
    assertThat(call.header("x-goog-api-key")).isEqualTo("vx-key");
    assertThat(call.header("Authorization")).isEmpty();
  }

  @Test
  void vertexTakesProjectAndRegionFromTheEnvironment() {
    model.json("{\"access_token\":\"ya29.env\",\"expires_in\":3600,\"token_type\":\"Bearer\"}");
    model.json(GeminiReplies.text("Env."));

    svc.result("venv", "SendMessage", message("hi"));

    assertThat(model.requests().getLast().path())
        .isEqualTo(
            "/v1/projects/env-proj/locations/asia-east1/publishers/google/models/gemini-2.5-flash:generateContent");
  }
}
