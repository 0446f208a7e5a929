package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.audit.AuditTrail;
import dev.svc.auth.AuthDecision;
import dev.svc.auth.AuthPlugin;
import dev.svc.cache.ResultCache;
import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.call.Headers;
import dev.svc.connector.Connector;
import dev.svc.model.CachePolicy;
import dev.svc.model.Execution;
import dev.svc.model.Model;
import dev.svc.model.ScriptRef;
import dev.svc.model.Statement;
import dev.svc.model.Tool;
import dev.svc.script.ScriptFailedException;
import dev.svc.script.ScriptRunner;
import dev.svc.script.ScriptTimeoutException;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.StubConnector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tool pipeline on a stub connector and a fake script runner, without I/O: the order of its
 * stages (auth → validate → input transform → cache lookup → execute → output transform → cache
 * store), what each failure comes back as, and that every stage works to the call's one deadline.
 */
class ToolInvokerTest {
  private static final String PROJECT =
      """
      == .svc
      name: shop
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/weather/config.terse
      description: Weather forecast for a city.
      use: db
      statement: select forecast from weather where city = {{ inputs.city }}
      timeout: 2
      inputs:
        city:
          type: string
          required: true
      """;

  private static final ScriptRef LOWER = new ScriptRef("app/tools/weather/lower.ts", "default");
  private static final ScriptRef WRAP = new ScriptRef("app/tools/weather/wrap.ts", "default");
  private static final ScriptRef THROWS = new ScriptRef("app/tools/weather/throws.ts", "default");
  private static final ScriptRef SLOW = new ScriptRef("app/tools/weather/slow.ts", "default");
  private static final ScriptRef LIST = new ScriptRef("app/tools/weather/list.ts", "default");

  @TempDir Path directory;

  /** What the stages did, in order: {@code auth}, {@code script <file>}, {@code execute}. */
  private final List<String> stages = new ArrayList<>();

  /** The deadline each script call and statement got. */
  private final List<Deadline> deadlines = new ArrayList<>();

  private final StubConnector stub = new StubConnector();
  private Tool weather;

  /** Runs the statement on the stub, noting the stage and its deadline. */
  private final Connector connector =
      new Connector() {
        @Override
        public void check(Deadline deadline) {}

        @Override
        public JsonNode execute(
            Statement statement, Map<String, Object> values, Deadline deadline) {
          stages.add("execute");
          deadlines.add(deadline);
          return stub.execute(statement, values, deadline);
        }

        @Override
        public void close() {}
      };

  /** Lower-cases the city, wraps the results, throws, times out, or returns a non-object. */
  private final ScriptRunner scripts =
      new ScriptRunner() {
        @Override
        public JsonNode call(
            ScriptRef script, JsonNode payload, String toolName, Deadline deadline, Caller caller) {
          stages.add("script " + script.path().substring(script.path().lastIndexOf('/') + 1));
          deadlines.add(deadline);
          if (script.equals(LOWER)) {
            ObjectNode inputs = (ObjectNode) payload.path("inputs").deepCopy();
            return inputs.put("city", inputs.path("city").asString().toLowerCase());
          }
          if (script.equals(WRAP)) {
            return Json.NODES.objectNode().set("wrapped", payload.path("results"));
          }
          if (script.equals(THROWS)) {
            throw new ScriptFailedException("the script threw: boom");
          }
          if (script.equals(SLOW)) {
            throw new ScriptTimeoutException(Duration.ofMillis(1999));
          }
          return Json.NODES.arrayNode().add(1);
        }

        @Override
        public void close() {}
      };

  /** Allows callers with an API key (their identity is the key), refuses the others. */
  private final AuthPlugin keyed =
      caller -> {
        stages.add("auth");
        return caller
            .headers()
            .first("x-api-key")
            .<AuthDecision>map(key -> new AuthDecision.Allow("key:" + key))
            .orElseGet(() -> new AuthDecision.Deny("missing API key"));
      };

  @BeforeEach
  void compile() {
    weather = ProjectFixture.model(directory, PROJECT).tool("weather").orElseThrow();
  }

  private Tool weather(
      Optional<ScriptRef> inputMapper, Optional<ScriptRef> outputMapper, boolean cached) {
    return new Tool(
        weather.name(),
        weather.description(),
        weather.inputs(),
        weather.execution(),
        inputMapper,
        outputMapper,
        weather.auth(),
        cached ? new CachePolicy(true, Duration.ofMinutes(1)) : CachePolicy.OFF,
        weather.timeout());
  }

  private Tool handler(ScriptRef script) {
    return new Tool(
        "handled",
        "A script tool.",
        weather.inputs(),
        new Execution.Handler(script),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        CachePolicy.OFF,
        weather.timeout());
  }

  private ToolInvoker invoker(Tool tool, boolean withAuth) {
    Model base = ProjectFixture.model(directory, PROJECT);
    Model model =
        new Model(
            base.service(),
            base.adapters(),
            List.of(tool),
            base.prompts(),
            base.resources(),
            base.resourceTemplates(),
            base.agents(),
            base.scripts());
    return new ToolInvoker(
        model,
        Map.of("db", connector),
        withAuth ? Map.of(tool.name(), keyed) : Map.of(),
        scripts,
        new ResultCache(ResultCache.DEFAULT_MAX_BYTES),
        new CallObserver(AuditTrail.OFF),
        new AdapterFailureLog());
  }

  private static Caller caller(String... headers) {
    return new Caller("req-1", Headers.of(headers), Optional.empty());
  }

  private static ToolOutcome call(ToolInvoker invoker, String tool, String arguments) {
    return invoker.call(tool, Json.MAPPER.readTree(arguments), caller("X-API-Key", "k1"));
  }

  @Test
  void theStagesRunInTheOrderOfTheSpec() {
    ToolInvoker invoker = invoker(weather(Optional.of(LOWER), Optional.of(WRAP), true), true);

    ToolOutcome outcome = call(invoker, "weather", "{\"city\":\"Paris\"}");

    assertThat(stages).containsExactly("auth", "script lower.ts", "execute", "script wrap.ts");
    assertThat(outcome)
        .isEqualTo(
            new ToolOutcome.Success(
                Json.MAPPER.readTree(
                    "{\"wrapped\":[{\"city\":\"paris\",\"forecast\":\"sunny\"}]}")));
  }

  @Test
  void theCacheIsLookedUpAfterTheInputTransformAndHoldsWhatTheOutputTransformMade() {
    ToolInvoker invoker = invoker(weather(Optional.of(LOWER), Optional.of(WRAP), true), true);
    ToolOutcome first = call(invoker, "weather", "{\"city\":\"Paris\"}");
    stages.clear();

    // other arguments, the same inputs once transformed: a hit, with no statement run again
    ToolOutcome second = call(invoker, "weather", "{\"city\":\"PARIS\"}");

    assertThat(stages).containsExactly("auth", "script lower.ts");
    assertThat(second).isEqualTo(first);
    assertThat(stub.executions()).isEqualTo(1);
  }

  @Test
  void cachedResultsAreKeptApartByWhoCalls() {
    ToolInvoker invoker = invoker(weather(Optional.empty(), Optional.empty(), true), true);
    JsonNode arguments = Json.MAPPER.readTree("{\"city\":\"Paris\"}");

    invoker.call("weather", arguments, caller("X-API-Key", "k1"));
    invoker.call("weather", arguments, caller("X-API-Key", "k2"));
    invoker.call("weather", arguments, caller("X-API-Key", "k1"));

    assertThat(stub.executions()).isEqualTo(2);
  }

  @Test
  void aRefusedCallerIsToldWhyBeforeItsArgumentsAreLookedAt() {
    ToolInvoker invoker = invoker(weather(Optional.of(LOWER), Optional.empty(), false), true);

    ToolOutcome outcome = invoker.call("weather", Json.MAPPER.readTree("{}"), caller());

    assertThat(outcome)
        .isEqualTo(new ToolOutcome.Failure("authentication failed: missing API key"));
    assertThat(stages).containsExactly("auth");
  }

  @Test
  void invalidArgumentsFailBeforeAnyScriptOrStatementRuns() {
    ToolInvoker invoker = invoker(weather(Optional.of(LOWER), Optional.empty(), false), true);

    assertThat(call(invoker, "weather", "{\"town\":\"Paris\"}"))
        .isEqualTo(
            new ToolOutcome.Failure(
                "invalid arguments: unknown input `town` (inputs: city); missing required input"
                    + " `city`"));
    assertThat(stages).containsExactly("auth");
  }

  @Test
  void aTransformThatThrowsIsAToolFailureWithItsMessage() {
    ToolInvoker invoker = invoker(weather(Optional.of(THROWS), Optional.empty(), false), false);

    assertThat(call(invoker, "weather", "{\"city\":\"Paris\"}"))
        .isEqualTo(new ToolOutcome.Failure("the script threw: boom"));
    assertThat(stages).containsExactly("script throws.ts");
  }

  @Test
  void anInputTransformMustReturnAnObject() {
    ToolInvoker invoker = invoker(weather(Optional.of(LIST), Optional.empty(), false), false);

    assertThat(call(invoker, "weather", "{\"city\":\"Paris\"}"))
        .isEqualTo(new ToolOutcome.Failure("the input transform must return an object of inputs"));
    assertThat(stub.executions()).isZero();
  }

  @Test
  void aStatementTheDatabaseRejectsIsAToolFailure() {
    ToolInvoker invoker = invoker(weather(Optional.empty(), Optional.of(WRAP), false), false);

    assertThat(call(invoker, "weather", "{\"city\":\"fail\"}"))
        .isEqualTo(new ToolOutcome.Failure("no such table: weather"));
    assertThat(stages).containsExactly("execute");
  }

  @Test
  void anUnavailableDatabaseIsAServerFault() {
    ToolInvoker invoker = invoker(weather(Optional.empty(), Optional.empty(), false), false);

    assertThatThrownBy(() -> call(invoker, "weather", "{\"city\":\"down\"}"))
        .isInstanceOf(ToolServerException.class)
        .hasMessage("the database of tool `weather` is unavailable");
  }

  @Test
  void aScriptPastTheDeadlineIsAToolFailureNamingTheToolsTimeout() {
    ToolInvoker invoker = invoker(handler(SLOW), false);

    assertThat(call(invoker, "handled", "{\"city\":\"Paris\"}"))
        .isEqualTo(new ToolOutcome.Failure("the script ran longer than 2 s"));
  }

  @Test
  void aStatementPastTheDeadlineIsAToolFailure() {
    ToolInvoker invoker = invoker(weather(Optional.empty(), Optional.empty(), false), false);

    assertThat(call(invoker, "weather", "{\"city\":\"slow\"}"))
        .isEqualTo(new ToolOutcome.Failure("the statement ran longer than 2 s and was cancelled"));
  }

  @Test
  void everyStageOfACallWorksToTheSameDeadline_theToolsTimeout() {
    ToolInvoker invoker = invoker(weather(Optional.of(LOWER), Optional.of(WRAP), false), false);

    call(invoker, "weather", "{\"city\":\"Paris\"}");

    assertThat(deadlines).hasSize(3);
    assertThat(deadlines).allSatisfy(d -> assertThat(d).isSameAs(deadlines.getFirst()));
    assertThat(deadlines.getFirst().timeout()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void anUnknownToolIsNotCalled() {
    ToolInvoker invoker = invoker(weather(Optional.empty(), Optional.empty(), false), false);

    assertThatThrownBy(() -> call(invoker, "nope", "{}"))
        .isInstanceOf(UnknownToolException.class)
        .hasMessage("Unknown tool: nope");
  }

  @Test
  void theBuiltInSearchRanksTheToolsAndChecksItsArguments() {
    ToolInvoker invoker = invoker(weather(Optional.empty(), Optional.empty(), false), false);

    assertThat(call(invoker, "search", "{\"query\":\"weather forecast\"}"))
        .isInstanceOfSatisfying(
            ToolOutcome.Success.class,
            success ->
                assertThat(success.payload().path(0).path("name").asString()).isEqualTo("weather"));
    assertThat(call(invoker, "search", "{\"query\":\"weather\",\"limit\":0}"))
        .isEqualTo(
            new ToolOutcome.Failure("invalid arguments: `limit` must be a positive integer"));
    assertThat(stages).isEmpty();
  }
}
