package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ScriptedModelServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The A2A routes and methods over real HTTP, with a scripted OpenAI-compatible model. */
class A2aServerIT {
  @TempDir Path directory;
  ScriptedModelServer model;
  A2aFixture svc;

  static A2aServer.Settings settings() {
    return new A2aServer.Settings(
        Duration.ofMillis(200),
        new InMemoryTaskStore(),
        new PushNotifier.Retry(
            4, Duration.ofMillis(20), Duration.ofMillis(100), Duration.ofSeconds(5)),
        Clock.tick(Clock.systemUTC(), Duration.ofMillis(1)));
  }

  @BeforeEach
  void start() {
    model = ScriptedModelServer.start();
    svc =
        A2aFixture.launch(
            directory,
            AgentProjects.SHOP,
            model.url(),
            Map.of("TEST_OPENAI_KEY", "sk-test-key-123"),
            settings());
  }

  @AfterEach
  void stop() {
    svc.close();
    model.close();
  }

  /**
   * A new message saying {@code text}: each with its own messageId (the same id twice would be a
   * retry of one message, see {@link A2aMessageRetriesIT}).
   */
  static String userMessage(String text) {
    return "{\"message\":{\"messageId\":\"m-"
        + UUID.randomUUID()
        + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":"
        + Json.MAPPER.writeValueAsString(text)
        + ",\"mediaType\":\"text/plain\"}]},\"configuration\":{}}";
  }

  @Test
  void theCardDescribesTheAgentAtTheUrlTheClientUsed() {
    HttpResponse<String> response =
        svc.get("/agent/weather/.well-known/agent-card.json", "A2A-Version", "1.0");
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode card = Json.MAPPER.readTree(response.body());
    assertThat(card.path("name").asString()).isEqualTo("weather");
    assertThat(card.path("description").asString())
        .isEqualTo("Answers questions about the weather.");
    assertThat(card.path("version").asString()).isEqualTo("2.1.0");
    JsonNode endpoint = card.path("supportedInterfaces").get(0);
    assertThat(endpoint.path("url").asString()).isEqualTo(svc.url() + "/agent/weather");
    assertThat(endpoint.path("protocolBinding").asString()).isEqualTo("JSONRPC");
    assertThat(endpoint.path("protocolVersion").asString()).isEqualTo("1.0");
    assertThat(card.path("capabilities").path("streaming").asBoolean()).isTrue();
    assertThat(card.path("capabilities").path("pushNotifications").asBoolean()).isTrue();
    assertThat(card.path("capabilities").path("extendedAgentCard").asBoolean()).isTrue();
    assertThat(card.path("defaultInputModes").toString()).contains("text/plain");
    assertThat(card.path("defaultOutputModes").toString()).contains("text/plain");
    JsonNode skill = card.path("skills").get(0);
    assertThat(skill.path("id").asString()).isEqualTo("weather");
    assertThat(skill.path("description").asString())
        .contains("Answers questions about the weather.")
        .contains("get_weather, secret_report, weather_archive");
    assertThat(skill.path("tags").toString()).contains("get_weather");
  }

  @Test
  void theCardUrlFollowsForwardedHeaders() {
    HttpResponse<String> response =
        svc.get(
            "/agent/weather/.well-known/agent-card.json",
            "X-Forwarded-Proto",
            "https",
            "X-Forwarded-Host",
            "agents.example.com");
    JsonNode card = Json.MAPPER.readTree(response.body());
    assertThat(card.path("supportedInterfaces").get(0).path("url").asString())
        .isEqualTo("https://agents.example.com/agent/weather");
  }

  @Test
  void anAgentWithoutDescriptionDoesNotPublishItsInstruction() {
    JsonNode card = Json.MAPPER.readTree(svc.get("/agent/gem/.well-known/agent-card.json").body());
    assertThat(card.path("description").asString()).isEqualTo("The gem agent of shop.");
    assertThat(card.toString()).doesNotContain("You are Gem");
  }

  @Test
  void anUnknownAgentIs404() {
    assertThat(svc.get("/agent/nobody/.well-known/agent-card.json").statusCode()).isEqualTo(404);
    assertThat(svc.post("/agent/nobody", svc.request("GetTask", "{\"id\":\"x\"}")).statusCode())
        .isEqualTo(404);
    assertThat(svc.get("/agent/weather/elsewhere").statusCode()).isEqualTo(404);
  }

  @Test
  void agentRoutesAnswerCorsPreflightsOfAllowedOrigins() throws Exception {
    var request =
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(svc.url() + "/agent/weather"))
            .method("OPTIONS", java.net.http.HttpRequest.BodyPublishers.noBody())
            .header("Origin", "http://localhost:5173")
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "content-type, a2a-version")
            .build();
    HttpResponse<String> preflight = A2aFixture.send(request);
    assertThat(preflight.statusCode()).isEqualTo(204);
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin"))
        .contains("http://localhost:5173");
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers").orElse(""))
        .contains("A2A-Version");
    HttpResponse<String> card =
        svc.get("/agent/weather/.well-known/agent-card.json", "Origin", "http://localhost:5173");
    assertThat(card.headers().firstValue("Access-Control-Allow-Origin"))
        .contains("http://localhost:5173");
    HttpResponse<String> foreign =
        svc.get("/agent/weather/.well-known/agent-card.json", "Origin", "https://app.example.com");
    assertThat(foreign.statusCode()).isEqualTo(403);
    assertThat(foreign.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
  }

  @Test
  void anUnsupportedVersionIsRefusedWithTheV1Error() {
    JsonNode response = svc.rpc("weather", "GetTask", "{\"id\":\"x\"}", "A2A-Version", "0.3");
    assertThat(response.path("error").path("code").asInt()).isEqualTo(-32009);
    assertThat(response.path("error").path("message").asString())
        .isEqualTo(
            "The requested A2A protocol version '0.3' is not supported. Supported versions: 1.0");
    JsonNode info = response.path("error").path("data").get(0);
    assertThat(info.path("@type").asString()).isEqualTo("type.googleapis.com/google.rpc.ErrorInfo");
    assertThat(info.path("reason").asString()).isEqualTo("VERSION_NOT_SUPPORTED");
    assertThat(info.path("domain").asString()).isEqualTo("a2a-protocol.org");

    HttpResponse<String> byQuery =
        svc.post(
            "/agent/weather?A2A-Version=2.0",
            svc.request("GetTask", "{\"id\":\"x\"}"),
            "A2A-Version",
            "");
    assertThat(Json.MAPPER.readTree(byQuery.body()).path("error").path("code").asInt())
        .isEqualTo(-32009);

    // a version of thousands of characters is shown cut (before: repeated whole; found by the
    // fuzzer, A2aWireFuzzIT)
    JsonNode longVersion =
        svc.rpc("weather", "GetTask", "{\"id\":\"x\"}", "A2A-Version", "9".repeat(6_000));
    assertThat(longVersion.path("error").path("code").asInt()).isEqualTo(-32009);
    assertThat(longVersion.path("error").path("message").asString())
        .contains("… (6000 characters)")
        .hasSizeLessThan(400);
  }

  @Test
  void aMissingVersionHeaderMeansOnePointZero() throws Exception {
    var request =
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(svc.url() + "/agent/weather"))
            .header("Content-Type", "application/json")
            .POST(
                java.net.http.HttpRequest.BodyPublishers.ofString(
                    svc.request("GetTask", "{\"id\":\"nope\"}")))
            .build();
    HttpResponse<String> response = A2aFixture.send(request);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("A2A-Version")).contains("1.0");
    assertThat(Json.MAPPER.readTree(response.body()).path("error").path("code").asInt())
        .isEqualTo(-32001);
  }

  @Test
  void protocolErrorsUseTheJsonRpcCodes() {
    JsonNode parse = Json.MAPPER.readTree(svc.post("/agent/weather", "{not json").body());
    assertThat(parse.path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(parse.path("error").path("message").asString())
        .startsWith("Parse error at line 1, column 2: ")
        .doesNotContain("StreamReadFeature");
    assertThat(parse.path("id").isNull()).isTrue();

    JsonNode method = svc.rpc("weather", "message/send", "{}");
    assertThat(method.path("error").path("code").asInt()).isEqualTo(-32601);
    assertThat(method.path("error").path("message").asString())
        .isEqualTo(
            "Method not found: message/send is an A2A v0.3 method; this server speaks A2A v1,"
                + " where it is SendMessage");
    JsonNode resubscribe = svc.rpc("weather", "tasks/resubscribe", "{\"id\":\"t\"}");
    assertThat(resubscribe.path("error").path("message").asString())
        .endsWith("where it is SubscribeToTask");
    assertThat(svc.rpc("weather", "no/such/method", "{}").path("error").path("message").asString())
        .isEqualTo("Method not found: no/such/method");

    JsonNode params = svc.rpc("weather", "SendMessage", "{}");
    assertThat(params.path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(params.path("error").path("data").get(0).path("reason").asString())
        .isEqualTo("INVALID_PARAMS");

    JsonNode notFound = svc.rpc("weather", "GetTask", "{\"id\":\"nope\"}");
    assertThat(notFound.path("error").path("code").asInt()).isEqualTo(-32001);
    assertThat(notFound.path("error").path("message").asString()).isEqualTo("Task not found: nope");
    assertThat(notFound.path("error").path("data").get(0).path("reason").asString())
        .isEqualTo("TASK_NOT_FOUND");

    // what a client sent is shown up to 200 characters, then its length
    String huge = "x".repeat(1_000_000);
    JsonNode hugeId = svc.rpc("weather", "GetTask", "{\"id\":\"" + huge + "\"}");
    assertThat(hugeId.path("error").path("message").asString())
        .isEqualTo("Task not found: " + "x".repeat(200) + "… (1000000 characters)");
    JsonNode hugeRole =
        svc.rpc(
            "weather",
            "SendMessage",
            "{\"message\":{\"messageId\":\"m\",\"role\":\""
                + huge
                + "\",\"parts\":[{\"text\":\"hi\"}]}}");
    assertThat(hugeRole.path("error").path("message").asString())
        .endsWith(
            "must be ROLE_USER or ROLE_AGENT, not " + "x".repeat(200) + "… (1000000 characters)");
    JsonNode hugeState = svc.rpc("weather", "ListTasks", "{\"status\":\"" + huge + "\"}");
    assertThat(hugeState.path("error").path("message").asString()).hasSizeLessThan(300);
  }

  @Test
  void sendMessageRunsTheToolTheModelAsksForAndAnswersWithTheTask() throws Exception {
    model.json(OpenAiReplies.toolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"));
    model.json(OpenAiReplies.text("It is sunny in Paris."));

    JsonNode result = svc.result("weather", "SendMessage", userMessage("Weather in Paris?"));

    JsonNode task = result.path("task");
    assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(task.path("status").path("message").path("role").asString()).isEqualTo("ROLE_AGENT");
    assertThat(task.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("It is sunny in Paris.");
    assertThat(task.path("status").path("timestamp").asString())
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
    JsonNode artifact = task.path("artifacts").get(0);
    assertThat(artifact.path("parts").get(0).path("text").asString())
        .isEqualTo("It is sunny in Paris.");
    assertThat(artifact.path("name").asString()).isEqualTo("answer");
    JsonNode history = task.path("history");
    assertThat(history).hasSize(2);
    assertThat(history.get(0).path("role").asString()).isEqualTo("ROLE_USER");
    assertThat(history.get(0).path("taskId").asString()).isEqualTo(task.path("id").asString());
    assertThat(history.get(0).path("contextId").asString())
        .isEqualTo(task.path("contextId").asString());
    assertThat(history.get(1).path("role").asString()).isEqualTo("ROLE_AGENT");
    assertThat(task.has("kind")).isFalse();

    ScriptedModelServer.Recorded first = model.request(0);
    assertThat(first.path()).isEqualTo("/v1/chat/completions");
    assertThat(first.header("Authorization")).isEqualTo("Bearer sk-test-key-123");
    JsonNode messages = first.body().path("messages");
    assertThat(messages.get(0).path("role").asString()).isEqualTo("system");
    assertThat(messages.get(0).path("content").asString())
        .isEqualTo("You are a weather assistant.");
    assertThat(messages.get(1).path("content").asString()).isEqualTo("Weather in Paris?");
    assertThat(first.body().path("model").asString()).isEqualTo("gpt-test");
    assertThat(first.body().path("temperature").isNumber()).isTrue();
    assertThat(first.body().path("temperature").asDouble()).isEqualTo(0.2);
    assertThat(first.body().path("max_tokens").asInt()).isEqualTo(100);
    assertThat(first.body().has("api_key")).isFalse();
    assertThat(first.body().has("base_url")).isFalse();
    assertThat(first.body().has("stream")).isFalse();
    List<String> tools =
        first
            .body()
            .path("tools")
            .valueStream()
            .map(t -> t.path("function").path("name").asString())
            .toList();
    assertThat(tools).containsExactly("get_weather", "secret_report", "weather_archive");
    JsonNode weather = first.body().path("tools").get(0).path("function");
    assertThat(weather.path("description").asString()).isEqualTo("Weather forecast for a city.");
    assertThat(weather.path("parameters").path("properties").path("city").path("type").asString())
        .isEqualTo("string");

    JsonNode second = model.request(1).body().path("messages");
    assertThat(second.get(2).path("tool_calls").get(0).path("id").asString()).isEqualTo("call_1");
    JsonNode toolMessage = second.get(3);
    assertThat(toolMessage.path("role").asString()).isEqualTo("tool");
    assertThat(toolMessage.path("tool_call_id").asString()).isEqualTo("call_1");
    assertThat(toolMessage.path("content").asString())
        .isEqualTo("[{\"city\":\"Paris\",\"forecast\":\"sunny\"}]");
  }

  @Test
  void aToolTheAgentMayNotUseIsRefusedToTheModelAndNeverRuns() {
    model.json(OpenAiReplies.toolCall("call_1", "drop_tables", "{\"city\":\"Paris\"}"));
    model.json(OpenAiReplies.text("I cannot do that."));

    JsonNode task =
        svc.result("weather", "SendMessage", userMessage("Drop everything")).path("task");

    assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
    JsonNode toolMessage = model.request(1).body().path("messages").get(3);
    assertThat(toolMessage.path("content").asString())
        .contains("tool `drop_tables` is not available to this agent")
        .as("the statement never reached the database")
        .doesNotContain("no such table");
  }

  /** The tool messages of a model request, by content. */
  static List<String> toolAnswers(ScriptedModelServer.Recorded request) {
    List<String> answers = new ArrayList<>();
    for (JsonNode message : request.body().path("messages")) {
      if (message.path("role").asString().equals("tool")) {
        answers.add(message.path("content").asString());
      }
    }
    return answers;
  }

  @Test
  void aStepRunsAtMost32ToolCallsAndTheModelIsToldWhyTheOthersDidNot() {
    model.json(OpenAiReplies.toolCalls("get_weather", "{\"city\":\"Oslo\"}", 40));
    model.json(OpenAiReplies.text("Sunny, forty times."));

    JsonNode task = svc.result("weather", "SendMessage", userMessage("Weather x40?")).path("task");

    assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
    List<String> answers = toolAnswers(model.request(1));
    assertThat(answers).hasSize(40);
    assertThat(answers.subList(0, 32)).allSatisfy(a -> assertThat(a).contains("sunny"));
    assertThat(answers.subList(32, 40))
        .allSatisfy(a ->
            assertThat(a)
                .contains(
                    "not run: one step may call at most 32 tools; call the others in the next"
                        + " step, if they are still needed"));
  }

  @Test
  void noMoreToolsRunOnceATasksResultsHold16MiB(@TempDir Path other) {
    String project =
        """
        == .svc
        name: big
        == app/adapters/db.terse
        connector: sqlite
        connection_string: ":memory:"
        == app/tools/blob/config.terse
        description: A large text.
        use: db
        statement: SELECT hex(zeroblob(400000)) AS text
        == app/agents/reader/config.terse
        instruction: You read.
        model:
          provider: openai_compatible
          model: small
          options:
            base_url: {{MODEL}}/v1
        tool_access:
          mode: allow_all
        """;
    try (A2aFixture big = A2aFixture.launch(other, project, model.url(), Map.of(), settings())) {
      model.json(OpenAiReplies.toolCalls("blob", "{}", 30));
      model.json(OpenAiReplies.text("That was a lot."));

      JsonNode task = big.result("reader", "SendMessage", userMessage("Read it all")).path("task");

      assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
      List<String> answers = toolAnswers(model.request(1));
      assertThat(answers).hasSize(30);
      long ran = answers.stream().filter(a -> a.length() > 800_000).count();
      assertThat(ran).as("calls run before the results held 16 MiB").isBetween(8L, 21L);
      assertThat(answers.subList((int) ran, 30))
          .allSatisfy(a ->
              assertThat(a)
                  .contains(
                      "not run: this task's tool results already hold 16 MiB; answer with what"
                          + " you have, or narrow the calls"));
    }
  }

  @Test
  void toolFailuresGoBackToTheModelAsTheToolsAnswer() {
    model.json(OpenAiReplies.toolCall("call_1", "weather_archive", "{\"city\":\"Oslo\"}"));
    model.json(OpenAiReplies.toolCall("call_2", "get_weather", "{}"));
    model.json(OpenAiReplies.text("Sorry."));

    JsonNode task = svc.result("weather", "SendMessage", userMessage("Weather?")).path("task");

    assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(model.request(1).body().path("messages").get(3).path("content").asString())
        .contains("no such table: weather_archive");
    assertThat(model.request(2).body().path("messages").get(5).path("content").asString())
        .contains("city");
  }

  @Test
  void toolsSeeTheHeadersOfTheA2aRequest() {
    model.json(OpenAiReplies.toolCall("call_1", "secret_report", "{\"city\":\"Oslo\"}"));
    model.json(OpenAiReplies.text("done"));
    model.json(OpenAiReplies.toolCall("call_1", "secret_report", "{\"city\":\"Oslo\"}"));
    model.json(OpenAiReplies.text("done"));

    svc.result("weather", "SendMessage", userMessage("report please"), "X-API-Key", "s3cret");
    svc.result("weather", "SendMessage", userMessage("report again"));

    assertThat(model.request(1).body().path("messages").get(3).path("content").asString())
        .isEqualTo("[{\"report\":\"classified\",\"city\":\"Oslo\"}]");
    assertThat(model.request(3).body().path("messages").get(3).path("content").asString())
        .contains("authentication failed");
  }

  @Test
  void anAgentWithAllowNoneIsOfferedNoTools() {
    model.json(OpenAiReplies.text("Hello!"));
    svc.result("chat", "SendMessage", userMessage("hi"));
    assertThat(model.request(0).body().has("tools")).isFalse();
    assertThat(model.request(0).header("Authorization")).isEmpty();
  }

  @Test
  void anAgentWithAllowAllIsOfferedEveryToolAndSearch() {
    model.json(OpenAiReplies.text("Hello!"));
    svc.result("busy", "SendMessage", userMessage("hi"));
    List<String> tools =
        model
            .request(0)
            .body()
            .path("tools")
            .valueStream()
            .map(t -> t.path("function").path("name").asString())
            .toList();
    assertThat(tools)
        .containsExactly(
            "drop_tables", "get_weather", "search", "secret_report", "weather_archive");
  }

  @Test
  void theStepLimitEndsALoopingTaskAsFailed() {
    model.json(OpenAiReplies.toolCall("c1", "get_weather", "{\"city\":\"A\"}"));
    model.json(OpenAiReplies.toolCall("c2", "get_weather", "{\"city\":\"B\"}"));
    model.json(OpenAiReplies.text("never asked"));

    JsonNode task = svc.result("busy", "SendMessage", userMessage("loop")).path("task");

    assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_FAILED");
    assertThat(task.path("status").path("message").path("parts").get(0).path("text").asString())
        .contains("all 2 model steps");
    assertThat(model.requests()).hasSize(2);
  }

  @Test
  void aModelErrorFailsTheTaskWithTheProvidersReason() {
    model.error(
        401,
        "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\"}}");

    JsonNode task = svc.result("weather", "SendMessage", userMessage("hi")).path("task");

    assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_FAILED");
    assertThat(task.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("openai_compatible returned HTTP 401: Incorrect API key provided");
    assertThat(task.has("artifacts")).isFalse();
  }

  @Test
  void aProviderErrorQuotingTheKeySvcSentReachesNeitherTheClientNorTheLog() {
    // providers quote the key they refused; the task's text and the log line repeated it
    model.error(
        401, "{\"error\":{\"message\":\"Invalid API key provided: Bearer sk-test-key-123\"}}");

    JsonNode task = svc.result("weather", "SendMessage", userMessage("hi")).path("task");

    assertThat(task.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo(
            "openai_compatible returned HTTP 401: Invalid API key provided: Bearer [redacted]");
    assertThat(task.toString()).doesNotContain("sk-test-key-123");
  }

  @Test
  void anErrorInsideASuccessfulAnswerOrAStreamLosesTheKeyAndIsCutToOneLine() {
    // HTTP 200 with an `error` and no choices, and an error event mid-stream: both quoted the
    // provider's text whole, key and all, into the task and the log line
    String padding = "x".repeat(295);
    model.json("{\"error\":{\"message\":\"" + padding + " Bearer sk-test-key-123\"}}");
    model.sse("{\"error\":{\"message\":\"bad key\\nBearer sk-test-key-123\"}}");

    JsonNode task = svc.result("weather", "SendMessage", userMessage("hi")).path("task");
    JsonNode end =
        svc.stream("weather", "SendStreamingMessage", userMessage("hi"))
            .events()
            .getLast()
            .path("result")
            .path("statusUpdate");

    assertThat(task.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo(
            "openai_compatible answered without choices: "
                + padding
                + " Bear…"); // cut after the key is out
    assertThat(end.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("openai_compatible failed mid-stream: bad key Bearer [redacted]");
    assertThat(task.toString() + end).doesNotContain("sk-test");
  }

  @Test
  void anAnswerOfAnotherShapeFailsTheTaskSayingWhatWasWrong() {
    // a string message completed the task with an empty answer; an object of tool calls was read
    // as calls without names and sent back to the model until max_steps
    model.json("{\"choices\":[{\"message\":\"hello\"}]}");
    model.json("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"tool_calls\":{\"a\":1}}}]}");
    model.json(
        "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":{\"text\":\"x\"}}}]}");

    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      JsonNode task = svc.result("weather", "SendMessage", userMessage("hi")).path("task");
      assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_FAILED");
      texts.add(task.path("status").path("message").path("parts").get(0).path("text").asString());
    }
    assertThat(texts)
        .containsExactly(
            "openai_compatible answered a message that is not an object (a string)",
            "openai_compatible answered a message whose tool_calls is not a list (an object)",
            "openai_compatible answered a message whose content is neither text nor a list of parts"
                + " (an object)");
  }

  @Test
  void aProviderThatFallsSilentOrDripsAfterItsHeadersFailsTheTaskInsteadOfHoldingItForever(
      @TempDir Path other) throws Exception {
    // the time-out covered only the wait for headers: headers and then silence, or a byte every
    // 20 ms, kept the task working (and its place among max_running) for as long as the provider
    // liked
    String quick =
        AgentProjects.SHOP.replace("max_tokens: 100\n", "max_tokens: 100\n    timeout: 1\n");
    try (A2aFixture small =
        A2aFixture.launch(
            other, quick, model.url(), Map.of("TEST_OPENAI_KEY", "sk-test"), settings())) {
      model.silent(false).silent(true).endless(false);

      long start = System.nanoTime();
      JsonNode silent = small.result("weather", "SendMessage", userMessage("hi")).path("task");
      JsonNode streamEnd =
          small.stream("weather", "SendStreamingMessage", userMessage("hi"))
              .events()
              .getLast()
              .path("result")
              .path("statusUpdate");
      JsonNode drip = small.result("weather", "SendMessage", userMessage("drip")).path("task");

      assertThat(silent.path("status").path("message").path("parts").get(0).path("text").asString())
          .isEqualTo("openai_compatible stopped answering: nothing came for 1 s");
      assertThat(
              streamEnd.path("status").path("message").path("parts").get(0).path("text").asString())
          .isEqualTo("openai_compatible stopped answering: nothing came for 1 s");
      assertThat(drip.path("status").path("message").path("parts").get(0).path("text").asString())
          .isEqualTo("openai_compatible did not finish its answer within 10 s");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
      assertThat(model.awaitDisconnect()).as("svc hung up on the drip").isTrue();
    }
  }

  @Test
  void aModelAnswerWithoutEndFailsTheTaskAtTheLimitAndTheNextTaskRuns() throws Exception {
    model.flood(false);

    JsonNode task = svc.result("weather", "SendMessage", userMessage("flood")).path("task");

    assertThat(task.path("status").path("state").asString()).isEqualTo("TASK_STATE_FAILED");
    assertThat(task.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("openai_compatible answered with more than 8 MiB");
    assertThat(model.awaitDisconnect()).as("svc hung up on the flood").isTrue();

    model.json(OpenAiReplies.text("Sunny."));
    JsonNode next = svc.result("weather", "SendMessage", userMessage("hi")).path("task");
    assertThat(next.path("status").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
  }

  @Test
  void aStreamedAnswerWithoutEndFailsTheTaskAtTheLimit() {
    model.flood(true);

    List<JsonNode> events =
        svc.stream("weather", "SendStreamingMessage", userMessage("flood")).events();

    JsonNode end = events.getLast().path("result").path("statusUpdate");
    assertThat(end.path("status").path("state").asString()).isEqualTo("TASK_STATE_FAILED");
    assertThat(end.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("openai_compatible streamed more than 8 MiB");
  }

  @Test
  void aStreamWithoutASingleEventIsAFailureNotAnEmptyAnswer() {
    model.raw(200, "text/html", "<html><body>Gateway says hello</body></html>");

    List<JsonNode> events =
        svc.stream("weather", "SendStreamingMessage", userMessage("hi")).events();

    JsonNode end = events.getLast().path("result").path("statusUpdate");
    assertThat(end.path("status").path("state").asString()).isEqualTo("TASK_STATE_FAILED");
    assertThat(end.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo(
            "openai_compatible answered without any server-sent event (Content-Type text/html),"
                + " where its API streams events: check the model's endpoint");
  }

  @Test
  void aNewTaskThatRunningTasksLeaveNoRoomForIsRefusedAndTheServerGoesOn(@TempDir Path other)
      throws Exception {
    A2aServer.Settings tiny =
        new A2aServer.Settings(
            Duration.ofMillis(200),
            new InMemoryTaskStore(100, 300_000, Duration.ofDays(1), Clock.systemUTC()),
            settings().retry(),
            Clock.systemUTC());
    try (A2aFixture small =
        A2aFixture.launch(
            other,
            // the never-answered task would hold the instance's close for the whole drain limit
            AgentProjects.SHOP.replace(
                "  allowed_hosts: [agents.example.com]\n",
                "  allowed_hosts: [agents.example.com]\n  limits:\n    drain_timeout: 1\n"),
            model.url(),
            Map.of("TEST_OPENAI_KEY", "sk-test"),
            tiny)) {
      model.endless(false); // the first task runs until the model answers, which it never does
      String big = "x".repeat(200_000);
      JsonNode first =
          small.result(
              "weather",
              "SendMessage",
              userMessage(big)
                  .replace(
                      "\"configuration\":{}", "\"configuration\":{\"returnImmediately\":true}"));
      assertThat(state(first.path("task"))).isEqualTo("TASK_STATE_SUBMITTED");
      assertThat(model.awaitEndlessStarted()).isTrue();

      JsonNode refused = small.rpc("weather", "SendMessage", userMessage(big));

      assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32603);
      assertThat(refused.path("error").path("message").asString())
          .startsWith("Internal error: no room for a new task: the tasks running on this instance");
      assertThat(refused.path("error").path("data").get(0).path("reason").asString())
          .isEqualTo("TASK_STORE_FULL");
      model.json(OpenAiReplies.text("Sunny."));
      JsonNode small1 = small.result("weather", "SendMessage", userMessage("hi")).path("task");
      assertThat(state(small1)).as("a small task still fits").isEqualTo("TASK_STATE_COMPLETED");
    }
  }

  static String immediately(String text) {
    return userMessage(text)
        .replace("\"configuration\":{}", "\"configuration\":{\"returnImmediately\":true}");
  }

  @Test
  void tasksPastMaxRunningWaitSubmittedAndPastMaxWaitingAreRefused(@TempDir Path other)
      throws Exception {
    String limited =
        AgentProjects.SHOP.replace(
            "agents:\n", "agents:\n  tasks:\n    max_running: 1\n    max_waiting: 1\n");
    try (A2aFixture small =
        A2aFixture.launch(
            other, limited, model.url(), Map.of("TEST_OPENAI_KEY", "sk-test"), settings())) {
      for (int i = 0; i < 3; i++) { // refused after admission: each gives its place back
        JsonNode unknown =
            small.rpc(
                "weather",
                "SendMessage",
                immediately("again").replace("\"role\"", "\"taskId\":\"no-such-task\",\"role\""));
        assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32001);
      }
      model.endless(false); // the first task runs until it is canceled
      String first =
          small
              .result("weather", "SendMessage", immediately("one"))
              .path("task")
              .path("id")
              .asString();
      assertThat(model.awaitEndlessStarted()).isTrue();

      String second =
          small
              .result("weather", "SendMessage", immediately("two"))
              .path("task")
              .path("id")
              .asString();
      JsonNode refused = small.rpc("weather", "SendMessage", immediately("three"));

      assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32603);
      assertThat(refused.path("error").path("message").asString())
          .isEqualTo(
              "Internal error: too many tasks: this instance runs 1 tasks at once and 1 more wait"
                  + " for a turn, its limits (agents.tasks.max_running and max_waiting); retry when"
                  + " some have finished");
      assertThat(refused.path("error").path("data").get(0).path("reason").asString())
          .isEqualTo("TOO_MANY_TASKS");
      Thread.sleep(300);
      assertThat(small.get("/metrics").body())
          .contains("svc_a2a_tasks{svc_task_state=\"running\"} 1")
          .contains("svc_a2a_tasks{svc_task_state=\"waiting\"} 1");
      assertThat(state(small.result("weather", "GetTask", "{\"id\":\"" + second + "\"}")))
          .as("the second task waits for a turn, its model not called")
          .isEqualTo("TASK_STATE_SUBMITTED");
      assertThat(model.requests()).hasSize(1);

      // a waiting task canceled gives its place back
      assertThat(state(small.result("weather", "CancelTask", "{\"id\":\"" + second + "\"}")))
          .isEqualTo("TASK_STATE_CANCELED");
      model.json(OpenAiReplies.text("Sunny."));
      String fourth =
          small
              .result("weather", "SendMessage", immediately("four"))
              .path("task")
              .path("id")
              .asString();
      // the running one canceled gives its turn to the next
      small.result("weather", "CancelTask", "{\"id\":\"" + first + "\"}");
      long until = System.nanoTime() + 10_000_000_000L;
      String fourthState = "";
      while (System.nanoTime() < until && !fourthState.equals("TASK_STATE_COMPLETED")) {
        Thread.sleep(50);
        fourthState = state(small.result("weather", "GetTask", "{\"id\":\"" + fourth + "\"}"));
      }
      assertThat(fourthState).isEqualTo("TASK_STATE_COMPLETED");
      assertThat(state(small.result("weather", "GetTask", "{\"id\":\"" + second + "\"}")))
          .isEqualTo("TASK_STATE_CANCELED");
      assertThat(model.requests())
          .as("the canceled waiting task never called the model")
          .hasSize(2);
      assertThat(small.get("/metrics").body())
          .contains("svc_http_refusals_total{svc_refusal_reason=\"too_many_tasks\"} 1");
    }
  }

  @Test
  void returnImmediatelyAnswersWithTheSubmittedTaskAndGetTaskFollowsIt() throws Exception {
    model.endless(false);

    JsonNode submitted =
        svc.result(
                "weather",
                "SendMessage",
                userMessage("slow one")
                    .replace(
                        "\"configuration\":{}", "\"configuration\":{\"returnImmediately\":true}"))
            .path("task");

    assertThat(submitted.path("status").path("state").asString()).isEqualTo("TASK_STATE_SUBMITTED");
    String id = submitted.path("id").asString();
    assertThat(model.awaitEndlessStarted()).isTrue();
    JsonNode working = svc.result("weather", "GetTask", "{\"id\":\"" + id + "\"}");
    assertThat(working.path("status").path("state").asString()).isEqualTo("TASK_STATE_WORKING");
    assertThat(working.has("task")).isFalse(); // GetTask returns the bare task

    JsonNode canceled = svc.result("weather", "CancelTask", "{\"id\":\"" + id + "\"}");
    assertThat(canceled.path("status").path("state").asString()).isEqualTo("TASK_STATE_CANCELED");
    assertThat(model.awaitDisconnect()).as("the model call was aborted").isTrue();

    JsonNode again = svc.rpc("weather", "CancelTask", "{\"id\":\"" + id + "\"}");
    assertThat(again.path("error").path("code").asInt()).isEqualTo(-32002);
    assertThat(again.path("error").path("data").get(0).path("reason").asString())
        .isEqualTo("TASK_NOT_CANCELABLE");
    JsonNode after =
        svc.result("weather", "GetTask", "{\"id\":\"" + id + "\",\"historyLength\":0}");
    assertThat(after.path("status").path("state").asString()).isEqualTo("TASK_STATE_CANCELED");
    assertThat(after.has("history")).isFalse();
  }

  static String withConfiguration(String message, String configuration) {
    return message.replace("\"configuration\":{}", "\"configuration\":" + configuration);
  }

  static String state(JsonNode task) {
    return task.path("status").path("state").asString();
  }

  @Test
  void aStreamCarriesTheTaskWorkingTextChunksAndTheEnd() {
    model.sse(
        OpenAiReplies.toolDelta(0, "call_9", "get_weather", "{\"ci"),
        OpenAiReplies.toolDelta(0, null, null, "ty\":\"Rome\"}"),
        OpenAiReplies.done());
    model.sse(
        OpenAiReplies.delta("Sunny "),
        OpenAiReplies.delta("in "),
        OpenAiReplies.delta("Rome."),
        OpenAiReplies.done());

    A2aFixture.Sse sse = svc.stream("weather", "SendStreamingMessage", userMessage("Rome?"));

    assertThat(sse.status()).isEqualTo(200);
    assertThat(sse.contentType()).startsWith("text/event-stream");
    assertThat(sse.lines()).noneMatch(l -> l.startsWith("event:") || l.startsWith("id:"));
    List<JsonNode> events = sse.events();
    long requestId = events.get(0).path("id").asLong();
    assertThat(events)
        .allSatisfy(e -> {
          assertThat(e.path("jsonrpc").asString()).isEqualTo("2.0");
          assertThat(e.path("id").asLong()).isEqualTo(requestId);
        });
    JsonNode task = events.get(0).path("result").path("task");
    assertThat(state(task)).isEqualTo("TASK_STATE_SUBMITTED");
    assertThat(task.path("history").get(0).path("parts").get(0).path("text").asString())
        .isEqualTo("Rome?");
    JsonNode working = events.get(1).path("result").path("statusUpdate");
    assertThat(working.path("status").path("state").asString()).isEqualTo("TASK_STATE_WORKING");
    assertThat(working.path("taskId").asString()).isEqualTo(task.path("id").asString());
    assertThat(working.path("contextId").asString()).isEqualTo(task.path("contextId").asString());
    List<JsonNode> chunks =
        events.subList(2, events.size() - 1).stream()
            .map(e -> e.path("result").path("artifactUpdate"))
            .toList();
    assertThat(chunks).hasSize(3);
    assertThat(
            chunks.stream()
                .map(c -> c.path("artifact").path("parts").get(0).path("text").asString()))
        .containsExactly("Sunny ", "in ", "Rome.");
    assertThat(chunks.get(0).has("append")).isFalse();
    assertThat(chunks.get(1).path("append").asBoolean()).isTrue();
    assertThat(chunks.get(0).has("lastChunk")).isFalse();
    assertThat(chunks.get(2).path("lastChunk").asBoolean()).isTrue();
    assertThat(
            chunks.stream().map(c -> c.path("artifact").path("artifactId").asString()).distinct())
        .hasSize(1);
    JsonNode end = events.getLast().path("result").path("statusUpdate");
    assertThat(end.path("status").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(end.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("Sunny in Rome.");
    assertThat(end.has("final")).isFalse();

    assertThat(model.request(0).body().path("stream").asBoolean()).isTrue();
    JsonNode assembled = model.request(1).body().path("messages").get(2).path("tool_calls").get(0);
    assertThat(assembled.path("id").asString()).isEqualTo("call_9");
    assertThat(assembled.path("function").path("name").asString()).isEqualTo("get_weather");
    assertThat(assembled.path("function").path("arguments").asString())
        .isEqualTo("{\"city\":\"Rome\"}");
    JsonNode stored =
        svc.result("weather", "GetTask", "{\"id\":\"" + task.path("id").asString() + "\"}");
    assertThat(stored.path("artifacts").get(0).path("parts").get(0).path("text").asString())
        .isEqualTo("Sunny in Rome.");
  }

  @Test
  void aQuietStreamGetsKeepAliveComments() throws Exception {
    CountDownLatch gate = model.gated(OpenAiReplies.delta("late"), OpenAiReplies.done());
    A2aFixture.LiveStream stream = svc.open("chat", "SendStreamingMessage", userMessage("wait"));
    assertThat(stream.until(":")).isEqualTo(": keep-alive");
    gate.countDown();
    A2aFixture.Sse sse = stream.rest();
    assertThat(state(sse.events().getLast().path("result").path("statusUpdate")))
        .isEqualTo("TASK_STATE_COMPLETED");
  }

  @Test
  void subscribeStartsWithTheCurrentTaskThenFollowsItToTheEnd() throws Exception {
    CountDownLatch gate = model.gated(OpenAiReplies.delta("done at last"), OpenAiReplies.done());
    A2aFixture.LiveStream first = svc.open("chat", "SendStreamingMessage", userMessage("go"));
    String id = first.next().path("result").path("task").path("id").asString();
    assertThat(model.awaitEndlessStarted()).isTrue();

    A2aFixture.LiveStream second = svc.open("chat", "SubscribeToTask", "{\"id\":\"" + id + "\"}");
    JsonNode current = second.next().path("result").path("task");
    gate.countDown();
    List<JsonNode> events = second.rest().events();

    assertThat(state(current)).isEqualTo("TASK_STATE_WORKING");
    assertThat(current.path("id").asString()).isEqualTo(id);
    assertThat(
            events
                .get(1)
                .path("result")
                .path("artifactUpdate")
                .path("artifact")
                .path("parts")
                .get(0)
                .path("text")
                .asString())
        .isEqualTo("done at last");
    assertThat(state(events.getLast().path("result").path("statusUpdate")))
        .isEqualTo("TASK_STATE_COMPLETED");
    assertThat(state(first.rest().events().getLast().path("result").path("statusUpdate")))
        .isEqualTo("TASK_STATE_COMPLETED");

    JsonNode ended = svc.rpc("chat", "SubscribeToTask", "{\"id\":\"" + id + "\"}");
    assertThat(ended.path("error").path("code").asInt()).isEqualTo(-32004);
    assertThat(ended.path("error").path("data").get(0).path("reason").asString())
        .isEqualTo("UNSUPPORTED_OPERATION");
    JsonNode unknown = svc.rpc("chat", "SubscribeToTask", "{\"id\":\"nope\"}");
    assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32001);
  }

  @Test
  void cancelingAStreamedTaskEndsItsStream() throws Exception {
    model.endless(true);
    A2aFixture.LiveStream stream = svc.open("chat", "SendStreamingMessage", userMessage("forever"));
    String id = stream.next().path("result").path("task").path("id").asString();
    assertThat(model.awaitEndlessStarted()).isTrue();

    JsonNode canceled = svc.result("chat", "CancelTask", "{\"id\":\"" + id + "\"}");
    A2aFixture.Sse sse = stream.rest();

    assertThat(state(canceled)).isEqualTo("TASK_STATE_CANCELED");
    assertThat(model.awaitDisconnect()).isTrue();
    assertThat(state(sse.events().getLast().path("result").path("statusUpdate")))
        .isEqualTo("TASK_STATE_CANCELED");
  }

  @Test
  void listTasksFiltersAndPages() {
    for (String text : List.of("one", "two", "three")) {
      model.json(OpenAiReplies.text("answer " + text));
    }
    model.error(500, "{\"error\":{\"message\":\"boom\"}}");
    JsonNode first = svc.result("chat", "SendMessage", userMessage("one")).path("task");
    String context = first.path("contextId").asString();
    svc.result(
        "chat",
        "SendMessage",
        userMessage("two").replace("\"role\"", "\"contextId\":\"" + context + "\",\"role\""));
    JsonNode third = svc.result("chat", "SendMessage", userMessage("three")).path("task");
    JsonNode failed = svc.result("chat", "SendMessage", userMessage("four")).path("task");
    assertThat(state(failed)).isEqualTo("TASK_STATE_FAILED");

    JsonNode page1 = svc.result("chat", "ListTasks", "{\"pageSize\":3}");
    assertThat(page1.path("tasks")).hasSize(3);
    assertThat(page1.path("totalSize").asInt()).isEqualTo(4);
    assertThat(page1.path("pageSize").asInt()).isEqualTo(3);
    assertThat(page1.path("tasks").get(0).path("id").asString())
        .isEqualTo(failed.path("id").asString());
    assertThat(page1.path("tasks").get(0).has("artifacts")).isFalse();
    String token = page1.path("nextPageToken").asString();
    assertThat(token).isNotEmpty();
    JsonNode page2 =
        svc.result("chat", "ListTasks", "{\"pageSize\":3,\"pageToken\":\"" + token + "\"}");
    assertThat(page2.path("tasks")).hasSize(1);
    assertThat(page2.path("tasks").get(0).path("id").asString())
        .isEqualTo(first.path("id").asString());
    assertThat(page2.path("nextPageToken").asString()).isEmpty();

    JsonNode completed =
        svc.result(
            "chat",
            "ListTasks",
            "{\"status\":\"TASK_STATE_COMPLETED\",\"includeArtifacts\":true,\"historyLength\":1}");
    assertThat(completed.path("tasks")).hasSize(3);
    assertThat(
            completed
                .path("tasks")
                .get(0)
                .path("artifacts")
                .get(0)
                .path("parts")
                .get(0)
                .path("text")
                .asString())
        .isEqualTo("answer three");
    assertThat(completed.path("tasks").get(0).path("history")).hasSize(1);
    JsonNode any = svc.result("chat", "ListTasks", "{\"status\":\"TASK_STATE_UNSPECIFIED\"}");
    assertThat(any.path("totalSize").asInt()).isEqualTo(4);

    JsonNode inContext = svc.result("chat", "ListTasks", "{\"contextId\":\"" + context + "\"}");
    assertThat(inContext.path("totalSize").asInt()).isEqualTo(2);

    String after = third.path("status").path("timestamp").asString();
    JsonNode newer =
        svc.result("chat", "ListTasks", "{\"statusTimestampAfter\":\"" + after + "\"}");
    assertThat(newer.path("tasks").valueStream().map(t -> t.path("id").asString()))
        .containsExactly(failed.path("id").asString());

    assertThat(
            svc.rpc("chat", "ListTasks", "{\"pageSize\":1000}").path("error").path("code").asInt())
        .isEqualTo(-32602);
    assertThat(
            svc.rpc("chat", "ListTasks", "{\"status\":\"DONE\"}")
                .path("error")
                .path("code")
                .asInt())
        .isEqualTo(-32602);
    assertThat(
            svc.rpc("chat", "ListTasks", "{\"pageToken\":\"%%%\"}")
                .path("error")
                .path("code")
                .asInt())
        .isEqualTo(-32602);
    assertThat(svc.result("weather", "ListTasks", "{}").path("totalSize").asInt())
        .as("tasks are per agent")
        .isZero();
  }

  @Test
  void aConversationContinuesByContextIdOrTaskId() {
    model.json(OpenAiReplies.text("Nice to meet you, Ada."));
    model.json(OpenAiReplies.text("Your name is Ada."));
    model.json(OpenAiReplies.text("Still Ada."));

    JsonNode first = svc.result("chat", "SendMessage", userMessage("I am Ada.")).path("task");
    String context = first.path("contextId").asString();
    JsonNode second =
        svc.result(
                "chat",
                "SendMessage",
                userMessage("Who am I?")
                    .replace("\"role\"", "\"contextId\":\"" + context + "\",\"role\""))
            .path("task");
    JsonNode third =
        svc.result(
                "chat",
                "SendMessage",
                userMessage("And now?")
                    .replace(
                        "\"role\"", "\"taskId\":\"" + second.path("id").asString() + "\",\"role\""))
            .path("task");

    assertThat(second.path("contextId").asString()).isEqualTo(context);
    assertThat(third.path("contextId").asString()).isEqualTo(context);
    assertThat(third.path("id").asString()).isNotEqualTo(second.path("id").asString());
    JsonNode messages = model.request(2).body().path("messages");
    assertThat(
            messages
                .valueStream()
                .map(m -> m.path("role").asString() + ": " + m.path("content").asString()))
        .containsExactly(
            "system: You chat.",
            "user: I am Ada.",
            "assistant: Nice to meet you, Ada.",
            "user: Who am I?",
            "assistant: Your name is Ada.",
            "user: And now?");

    model.error(500, "{\"error\":{\"message\":\"overloaded\"}}");
    model.json(OpenAiReplies.text("Ada, again."));
    String inContext = "\"contextId\":\"" + context + "\",\"role\"";
    JsonNode failed =
        svc.result(
                "chat", "SendMessage", userMessage("Lost question").replace("\"role\"", inContext))
            .path("task");
    assertThat(state(failed)).isEqualTo("TASK_STATE_FAILED");
    svc.result("chat", "SendMessage", userMessage("Last one").replace("\"role\"", inContext));
    assertThat(model.request(4).body().path("messages").toString())
        .as("a failed task is not part of the conversation")
        .doesNotContain("Lost question")
        .doesNotContain("overloaded")
        .contains("Still Ada.");

    JsonNode mismatch =
        svc.rpc(
            "chat",
            "SendMessage",
            userMessage("x")
                .replace(
                    "\"role\"",
                    "\"taskId\":\""
                        + second.path("id").asString()
                        + "\",\"contextId\":\"other\",\"role\""));
    assertThat(mismatch.path("error").path("code").asInt()).isEqualTo(-32602);
    JsonNode unknownTask =
        svc.rpc(
            "chat",
            "SendMessage",
            userMessage("x").replace("\"role\"", "\"taskId\":\"nope\",\"role\""));
    assertThat(unknownTask.path("error").path("code").asInt()).isEqualTo(-32001);
  }

  @Test
  void filePartsAndOtherOutputModesAreNotSupported() {
    JsonNode file =
        svc.rpc(
            "chat",
            "SendMessage",
            "{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"url\":\"https://x/y.png\",\"mediaType\":\"image/png\"}]}}");
    assertThat(file.path("error").path("code").asInt()).isEqualTo(-32005);
    assertThat(file.path("error").path("data").get(0).path("reason").asString())
        .isEqualTo("CONTENT_TYPE_NOT_SUPPORTED");
    JsonNode modes =
        svc.rpc(
            "chat",
            "SendMessage",
            withConfiguration(userMessage("hi"), "{\"acceptedOutputModes\":[\"image/png\"]}"));
    assertThat(modes.path("error").path("code").asInt()).isEqualTo(-32005);
    assertThat(model.requests()).isEmpty();
  }

  @Test
  void dataPartsReachTheModelAsJson() {
    model.json(OpenAiReplies.text("ok"));
    svc.result(
        "chat",
        "SendMessage",
        "{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"order:\"},{\"data\":{\"id\":7}}],\"unknownField\":1}}");
    assertThat(model.request(0).body().path("messages").get(1).path("content").asString())
        .isEqualTo("order:\n{\"id\":7}");
  }

  @Test
  void theExtendedCardListsTheAgentsTools() {
    JsonNode card = svc.result("weather", "GetExtendedAgentCard", "{}");
    assertThat(card.path("skills").valueStream().map(s -> s.path("id").asString()))
        .containsExactly(
            "weather", "weather/get_weather", "weather/secret_report", "weather/weather_archive");
    assertThat(card.path("skills").get(1).path("description").asString())
        .isEqualTo("Weather forecast for a city.");
  }

  @Test
  void pushNotificationsPostTheTaskOnEveryStatusChangeWithRetries() throws Exception {
    try (ScriptedModelServer receiver = ScriptedModelServer.start()) {
      receiver.error(500, "{}"); // the first delivery fails and is retried
      for (int i = 0; i < 10; i++) {
        receiver.json("{}");
      }
      model.json(OpenAiReplies.text("pushed"));
      String configuration =
          "{\"taskPushNotificationConfig\":{\"url\":\""
              + receiver.url()
              + "/hook\",\"token\":\"tok-1\",\"authentication\":{\"scheme\":\"Bearer\",\"credentials\":\"cred\"}}}";

      JsonNode task =
          svc.result(
                  "chat", "SendMessage", withConfiguration(userMessage("notify me"), configuration))
              .path("task");

      List<String> states = new java.util.ArrayList<>();
      while (!states.contains("TASK_STATE_COMPLETED")) {
        ScriptedModelServer.Recorded push = receiver.awaitRequest();
        assertThat(push.path()).isEqualTo("/hook");
        assertThat(push.header("X-A2A-Notification-Token")).isEqualTo("tok-1");
        assertThat(push.header("Authorization")).isEqualTo("Bearer cred");
        assertThat(push.header("Content-Type")).startsWith("application/json");
        JsonNode pushed = push.body().path("task");
        assertThat(pushed.path("id").asString()).isEqualTo(task.path("id").asString());
        states.add(state(pushed));
      }
      assertThat(states.stream().distinct().toList())
          .containsExactly("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED");
      assertThat(states.getFirst()).isEqualTo("TASK_STATE_SUBMITTED");
      assertThat(states.get(1))
          .as("the failed delivery was retried")
          .isEqualTo("TASK_STATE_SUBMITTED");
    }
  }

  @Test
  void aListTasksPageEndsEarlyAtFourMibAndTheNextPageGoesOn() {
    String big = "x".repeat(1_500_000);
    for (int i = 0; i < 3; i++) {
      model.json(OpenAiReplies.text("ok " + i));
      svc.result("chat", "SendMessage", userMessage(big + i));
    }

    JsonNode first = svc.result("chat", "ListTasks", "{\"pageSize\":10}");
    assertThat(first.path("tasks")).hasSize(2);
    assertThat(first.path("totalSize").asInt()).isEqualTo(3);
    String token = first.path("nextPageToken").asString();
    assertThat(token).isNotEmpty();
    JsonNode second =
        svc.result("chat", "ListTasks", "{\"pageSize\":10,\"pageToken\":\"" + token + "\"}");
    assertThat(second.path("tasks")).hasSize(1);
    assertThat(second.path("nextPageToken").asString()).isEmpty();
    assertThat(
            java.util.stream.Stream.concat(
                    first.path("tasks").valueStream(), second.path("tasks").valueStream())
                .map(t -> t.path("id").asString())
                .distinct())
        .hasSize(3);
  }

  @Test
  void aTaskHasAtMostTenPushConfigsOfSixteenKibEach() {
    model.json(OpenAiReplies.text("ok"));
    String id =
        svc.result("chat", "SendMessage", userMessage("hi")).path("task").path("id").asString();
    for (int i = 0; i < 10; i++) {
      svc.result(
          "chat",
          "CreateTaskPushNotificationConfig",
          "{\"taskId\":\""
              + id
              + "\",\"id\":\"c"
              + i
              + "\",\"url\":\"https://hooks.example.com/"
              + i
              + "\"}");
    }

    JsonNode eleventh =
        svc.rpc(
            "chat",
            "CreateTaskPushNotificationConfig",
            "{\"taskId\":\"" + id + "\",\"url\":\"https://hooks.example.com/x\"}");
    assertThat(eleventh.path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(eleventh.path("error").path("message").asString())
        .isEqualTo(
            "Invalid params: task "
                + id
                + " already has 10 push notification configs, the most a task may have: delete"
                + " one first");
    assertThat(
            svc.result(
                    "chat",
                    "CreateTaskPushNotificationConfig",
                    "{\"taskId\":\""
                        + id
                        + "\",\"id\":\"c3\",\"url\":\"https://hooks.example.com/new\"}")
                .path("url")
                .asString())
        .as("replacing one of the ten is no eleventh")
        .isEqualTo("https://hooks.example.com/new");

    svc.result(
        "chat", "DeleteTaskPushNotificationConfig", "{\"taskId\":\"" + id + "\",\"id\":\"c0\"}");
    JsonNode huge =
        svc.rpc(
            "chat",
            "CreateTaskPushNotificationConfig",
            "{\"taskId\":\""
                + id
                + "\",\"url\":\"https://hooks.example.com/x\",\"token\":\""
                + "t".repeat(20_000)
                + "\"}");
    assertThat(huge.path("error").path("message").asString())
        .isEqualTo(
            "Invalid params: `params` is too large: a push config's id, task id, url, token and"
                + " credentials are at most 16 KiB together");
  }

  @Test
  void pushNotificationConfigsCanBeCreatedReadListedAndDeleted() {
    model.json(OpenAiReplies.text("ok"));
    String id =
        svc.result("chat", "SendMessage", userMessage("hi")).path("task").path("id").asString();

    JsonNode created =
        svc.result(
            "chat",
            "CreateTaskPushNotificationConfig",
            "{\"taskId\":\""
                + id
                + "\",\"id\":\"cfg-1\",\"url\":\"https://hooks.example.com/a\",\"token\":\"t\"}");
    assertThat(created.path("id").asString()).isEqualTo("cfg-1");
    assertThat(created.path("taskId").asString()).isEqualTo(id);
    assertThat(created.path("url").asString()).isEqualTo("https://hooks.example.com/a");
    JsonNode generated =
        svc.result(
            "chat",
            "CreateTaskPushNotificationConfig",
            "{\"taskId\":\"" + id + "\",\"url\":\"https://hooks.example.com/b\"}");
    assertThat(generated.path("id").asString()).isNotEmpty();

    JsonNode read =
        svc.result(
            "chat",
            "GetTaskPushNotificationConfig",
            "{\"taskId\":\"" + id + "\",\"id\":\"cfg-1\"}");
    assertThat(read.path("token").asString()).isEqualTo("t");

    JsonNode page1 =
        svc.result(
            "chat",
            "ListTaskPushNotificationConfigs",
            "{\"taskId\":\"" + id + "\",\"pageSize\":1}");
    assertThat(page1.path("configs")).hasSize(1);
    String token = page1.path("nextPageToken").asString();
    assertThat(token).isNotEmpty();
    JsonNode page2 =
        svc.result(
            "chat",
            "ListTaskPushNotificationConfigs",
            "{\"taskId\":\"" + id + "\",\"pageSize\":1,\"pageToken\":\"" + token + "\"}");
    assertThat(page2.path("configs").get(0).path("url").asString())
        .isEqualTo("https://hooks.example.com/b");
    assertThat(page2.path("nextPageToken").asString()).isEmpty();

    JsonNode deleted =
        svc.result(
            "chat",
            "DeleteTaskPushNotificationConfig",
            "{\"taskId\":\"" + id + "\",\"id\":\"cfg-1\"}");
    assertThat(deleted.isObject() && deleted.isEmpty()).isTrue();
    JsonNode gone =
        svc.rpc(
            "chat",
            "GetTaskPushNotificationConfig",
            "{\"taskId\":\"" + id + "\",\"id\":\"cfg-1\"}");
    assertThat(gone.path("error").path("code").asInt()).isEqualTo(-32001);

    JsonNode noTask =
        svc.rpc(
            "chat",
            "CreateTaskPushNotificationConfig",
            "{\"taskId\":\"nope\",\"url\":\"https://h.example.com/\"}");
    assertThat(noTask.path("error").path("code").asInt()).isEqualTo(-32001);
    JsonNode badUrl =
        svc.rpc(
            "chat",
            "CreateTaskPushNotificationConfig",
            "{\"taskId\":\"" + id + "\",\"url\":\"ftp://h/\"}");
    assertThat(badUrl.path("error").path("code").asInt()).isEqualTo(-32602);
  }
}
