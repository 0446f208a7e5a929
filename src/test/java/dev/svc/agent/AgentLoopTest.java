package dev.svc.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.cache.ResultCache;
import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.json.Json;
import dev.svc.model.Agent;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.script.UnavailableScriptRunner;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.StubConnector;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent loop with a scripted model client: tool access, tool results, steps, streaming; and how
 * an {@link AgentRunner} run ends when the model cannot be called or the run is stopped.
 */
class AgentLoopTest {
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
      statement: select forecast from weather where city = {{ inputs.city }}
      inputs:
        city:
          type: string
      == app/tools/get.users/config.terse
      description: Lists users.
      use: db
      statement: select * from users where name = {{ inputs.name }}
      inputs:
        name:
          type: string
      == app/tools/drop_tables/config.terse
      description: Deletes every table.
      use: db
      statement: delete from weather where city = {{ inputs.city }}
      inputs:
        city:
          type: string
      == app/agents/inherits/config.terse
      instruction: Inherit.
      model: {provider: openai, model: m}
      == app/agents/listed/config.terse
      instruction: Listed.
      model: {provider: openai, model: m}
      tool_access:
        mode: allow_list
        tools: [get.users, drop_tables]
      == app/agents/none/config.terse
      instruction: None.
      model: {provider: openai, model: m}
      tool_access:
        mode: allow_none
      == app/agents/all/config.terse
      instruction: All.
      model: {provider: openai, model: m}
      tool_access:
        mode: allow_all
      == app/agents/keyless/config.terse
      instruction: Gemini without a key.
      model: {provider: gemini, model: m}
      """;

  @TempDir Path directory;
  Model model;
  ProjectRuntime runtime;
  StubConnector connector = new StubConnector();
  ScriptedClient client = new ScriptedClient();

  /** A model client that answers from a script and keeps the requests. */
  static final class ScriptedClient implements ModelClient {
    final Deque<Turn.Model> replies = new ArrayDeque<>();
    final List<ModelRequest> requests = new ArrayList<>();
    final List<List<String>> streamed = new ArrayList<>();

    ScriptedClient then(String text, ToolCall... calls) {
      replies.add(new Turn.Model(text, List.of(calls), Optional.empty()));
      return this;
    }

    @Override
    public Turn.Model generate(ModelRequest request, Consumer<String> text) {
      requests.add(request);
      Turn.Model reply = replies.removeFirst();
      if (request.streaming() && !reply.text().isEmpty()) {
        for (String piece : reply.text().split("(?<= )")) {
          text.accept(piece);
        }
      }
      return reply;
    }

    List<String> offered(int request) {
      return requests.get(request).functions().stream().map(FunctionSpec::name).toList();
    }
  }

  @BeforeEach
  void start() {
    model = ProjectFixture.model(directory, PROJECT);
    runtime =
        ProjectRuntime.start(
            model,
            new ProjectRuntime.Settings(
                Environment.of(Map.of()),
                directory,
                a -> connector,
                new UnavailableScriptRunner(),
                ResultCache.DEFAULT_MAX_BYTES));
  }

  @AfterEach
  void stop() {
    runtime.close();
  }

  AgentLoop.Answer run(String agentName, int maxSteps, boolean streaming, Consumer<String> chunks) {
    Agent agent = model.agent(agentName).orElseThrow();
    AgentLoop loop = new AgentLoop(agent, client, new AgentTools(agent, runtime.tools()), maxSteps);
    return loop.run(
        List.of(new Turn.User("hi")),
        new Caller("req1", Headers.of("X-API-Key", "k"), Optional.empty()),
        streaming,
        chunks);
  }

  AgentLoop.Answer run(String agentName) {
    return run(agentName, 8, false, s -> {});
  }

  static ToolCall call(String name, String args) {
    return new ToolCall("c-" + name, name, Json.MAPPER.readTree(args));
  }

  @Test
  void theInstructionIsTheSystemMessageAndTheAnswerIsTheLastText() {
    client.then("Hello.");
    AgentLoop.Answer answer = run("none");
    assertThat(answer.text()).isEqualTo("Hello.");
    assertThat(client.requests.getFirst().system()).isEqualTo("None.");
    assertThat(client.requests.getFirst().turns()).containsExactly(new Turn.User("hi"));
  }

  @Test
  void toolAccessDecidesWhatIsOffered() {
    client.then("a").then("b").then("c").then("d");
    run("inherits");
    run("listed");
    run("none");
    run("all");
    assertThat(client.offered(0)).as("inherit → root allow_list").containsExactly("get_weather");
    assertThat(client.offered(1))
        .as("allow_list, dotted name made portable")
        .containsExactly("drop_tables", "get_users");
    assertThat(client.offered(2)).as("allow_none").isEmpty();
    assertThat(client.offered(3))
        .containsExactly("drop_tables", "get_users", "get_weather", "search");
  }

  @Test
  void toolCallsRunThroughThePipelineUnderTheirToolName() {
    client.then("", call("get_users", "{\"name\":\"ada\"}")).then("Found Ada.");
    AgentLoop.Answer answer = run("listed");
    Turn.ToolResult result = (Turn.ToolResult) client.requests.get(1).turns().get(2);
    assertThat(result.failed()).isFalse();
    assertThat(result.result().get(0).path("name").asString()).isEqualTo("ada");
    assertThat(answer.turns()).hasSize(3);
    assertThat(connector.executions()).isEqualTo(1);
  }

  @Test
  void aForbiddenToolIsAnsweredWithAnErrorAndNotRun() {
    client
        .then("", call("drop_tables", "{\"city\":\"x\"}"), call("search", "{\"query\":\"x\"}"))
        .then("ok");
    run("inherits");
    List<Turn> turns = client.requests.get(1).turns();
    for (Turn turn : turns.subList(2, 4)) {
      Turn.ToolResult result = (Turn.ToolResult) turn;
      assertThat(result.failed()).isTrue();
      assertThat(result.result().path("error").asString())
          .contains("is not available to this agent");
    }
    assertThat(connector.executions()).isZero();
  }

  @Test
  void badArgumentsAndValidationErrorsGoBackToTheModel() {
    client
        .then(
            "",
            new ToolCall("c1", "get_weather", Json.NODES.stringNode("{broken")),
            call("get_weather", "{\"town\":\"x\"}"))
        .then("sorry");
    run("inherits");
    List<Turn> turns = client.requests.get(1).turns();
    assertThat(((Turn.ToolResult) turns.get(2)).result().path("error").asString())
        .isEqualTo("the arguments must be a JSON object");
    assertThat(((Turn.ToolResult) turns.get(3)).result().path("error").asString()).contains("town");
  }

  @Test
  void searchRunsUnderAllowAll() {
    client.then("", call("search", "{\"query\":\"weather\"}")).then("ok");
    run("all");
    Turn.ToolResult result = (Turn.ToolResult) client.requests.get(1).turns().get(2);
    assertThat(result.failed()).isFalse();
    assertThat(result.result().get(0).path("name").asString()).isEqualTo("get_weather");
  }

  @Test
  void theStepLimitStopsALoopingModel() {
    client
        .then("", call("get_weather", "{\"city\":\"a\"}"))
        .then("", call("get_weather", "{\"city\":\"b\"}"));
    assertThatThrownBy(() -> run("inherits", 2, false, s -> {}))
        .isInstanceOf(ModelException.class)
        .hasMessage(
            "the agent used all 2 model steps without giving an answer (raise the model option `max_steps`)");
    assertThat(client.requests).hasSize(2);
  }

  @Test
  void textOfEveryStepIsTheAnswerAndIsStreamedWithTheSameSeparators() {
    client.then("Let me look.", call("get_weather", "{\"city\":\"a\"}")).then("It is sunny.");
    StringBuilder streamed = new StringBuilder();
    AgentLoop.Answer answer = run("inherits", 8, true, streamed::append);
    assertThat(answer.text()).isEqualTo("Let me look.\n\nIt is sunny.");
    assertThat(streamed.toString()).isEqualTo(answer.text());
    assertThat(client.requests.getFirst().streaming()).isTrue();
  }

  @Test
  void anInterruptedThreadStopsBeforeTheNextModelCall() {
    client.then("never");
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> run("none")).isInstanceOf(ModelCallInterruptedException.class);
    } finally {
      Thread.interrupted();
    }
    assertThat(client.requests).isEmpty();
  }

  AgentRunner.Outcome runner(String agentName) {
    return new AgentRunner(Environment.of(Map.of()))
        .run(
            model.agent(agentName).orElseThrow(),
            runtime.tools(),
            List.of(new Turn.User("hi")),
            Caller.internal("r1"),
            false,
            text -> {});
  }

  @Test
  void aRunWhoseModelCannotBeCalledIsAFailureSayingWhy() {
    assertThat(runner("keyless"))
        .isEqualTo(
            new AgentRunner.Outcome.Failed(
                "gemini needs an API key: set the model option `api_key` or GOOGLE_API_KEY"));
  }

  @Test
  void aRunWhoseThreadIsInterruptedStopsBeforeItCallsTheModel() {
    Thread.currentThread().interrupt();
    try {
      assertThat(runner("none")).isEqualTo(new AgentRunner.Outcome.Stopped());
    } finally {
      Thread.interrupted();
    }
  }
}
