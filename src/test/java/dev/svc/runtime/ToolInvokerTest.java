package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.audit.AuditTrail;
import dev.svc.auth.AuthDecision;
import dev.svc.auth.AuthPlugin;
import dev.svc.cache.InMemoryResultCache;
import dev.svc.cache.ResultCache;
import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.call.Headers;
import dev.svc.call.VerifiedToken;
import dev.svc.connector.Connector;
import dev.svc.connector.StatementOptions;
import dev.svc.json.Json;
import dev.svc.model.CachePolicy;
import dev.svc.model.Execution;
import dev.svc.model.Model;
import dev.svc.model.ScriptRef;
import dev.svc.model.Statement;
import dev.svc.model.Tool;
import dev.svc.script.ScriptFailedException;
import dev.svc.script.ScriptRunner;
import dev.svc.script.ScriptTimeoutException;
import dev.svc.testing.StubConnector;
import dev.svc.testing.WeatherProject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tool pipeline on a stub connector and a fake script runner, without I/O: the order of its
 * stages (auth → validate → input transform → cache lookup → execute → output transform → cache
 * store), what each failure comes back as, and that every stage works to the call's one deadline.
 */
class ToolInvokerTest {
  private static final ScriptRef LOWER = script("lower.ts");
  private static final ScriptRef WRAP = script("wrap.ts");
  private static final ScriptRef THROWS = script("throws.ts");
  private static final ScriptRef SLOW = script("slow.ts");
  private static final ScriptRef ASKS = script("asks.ts");

  @TempDir Path directory;

  /** What the stages did, in order: {@code auth}, {@code script <file>}, {@code execute}. */
  private final List<String> stages = new ArrayList<>();

  /** The deadline each script call and statement got. */
  private final List<Deadline> deadlines = new ArrayList<>();

  /** The values each statement bound, and the payload each script got. */
  private final List<Map<String, Object>> bound = new ArrayList<>();

  private final List<JsonNode> payloads = new ArrayList<>();

  private final StubConnector stub = new StubConnector();
  private Model model;
  private Tool weather;

  /** Runs the statement on the stub, noting the stage and its deadline. */
  private final Connector connector =
      new Connector() {
        @Override
        public void check(Deadline deadline) {}

        @Override
        public JsonNode execute(
            Statement statement,
            Map<String, Object> values,
            Deadline deadline,
            StatementOptions options) {
          stages.add("execute");
          deadlines.add(deadline);
          bound.add(values);
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
          payloads.add(payload);
          if (script.equals(LOWER)) {
            ObjectNode inputs = (ObjectNode) payload.path("inputs").deepCopy();
            return inputs.put("city", inputs.path("city").asString().toLowerCase());
          }
          if (script.equals(WRAP)) {
            return Json.NODES.objectNode().set("wrapped", payload.path("results"));
          }
          if (script.equals(ASKS)) { // as mcp.canAsk("roots") does
            return Json.NODES.objectNode().put("roots", caller.client().declares("roots"));
          }
          if (script.equals(THROWS)) {
            throw new ScriptFailedException("the script threw: boom");
          }
          if (script.equals(SLOW)) {
            throw new ScriptTimeoutException(Duration.ofMillis(700)); // what was left of 2 s
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
    model = WeatherProject.model(directory);
    weather = model.tool("weather").orElseThrow();
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

  /** The project's tool as compiled: a statement, no transforms, no cache, no auth. */
  private ToolInvoker plain() {
    return invoker(weather, false);
  }

  private ToolInvoker invoker(Tool tool, boolean withAuth) {
    return new ToolInvoker(
        new Model(
            model.service(),
            model.adapters(),
            List.of(tool),
            model.prompts(),
            model.resources(),
            model.resourceTemplates(),
            model.agents(),
            model.scripts()),
        Map.of("db", connector),
        withAuth ? Map.of(tool.name(), keyed) : Map.of(),
        scripts,
        new InMemoryResultCache(ResultCache.DEFAULT_MAX_BYTES),
        new CallObserver(AuditTrail.OFF),
        new AdapterFailureLog(),
        PageCursors.create(Optional.empty()));
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
        .isInstanceOfSatisfying(
            ToolOutcome.Success.class,
            s ->
                assertThat(s.payload())
                    .isEqualTo(
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
    assertThat(ToolOutcomeText.of(second)).isEqualTo(ToolOutcomeText.of(first));
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

  /** Lets in {@code X-User} with a token of that subject and the tenant {@code X-Tenant}. */
  private final AuthPlugin tokens =
      caller -> {
        String user = caller.headers().first("x-user").orElseThrow();
        Map<String, Object> claims = new java.util.LinkedHashMap<>();
        claims.put("sub", user);
        caller.headers().first("x-tenant").ifPresent(t -> claims.put("tenant", t));
        VerifiedToken token =
            new VerifiedToken(user, java.util.Set.of("orders:read"), java.time.Instant.MAX, claims);
        return new AuthDecision.Allow(token.principalId(), Optional.of(token));
      };

  private ToolInvoker withTokens(Tool tool) {
    return new ToolInvoker(
        new Model(
            model.service(),
            model.adapters(),
            List.of(tool),
            model.prompts(),
            model.resources(),
            model.resourceTemplates(),
            model.agents(),
            model.scripts()),
        Map.of("db", connector),
        Map.of(tool.name(), tokens),
        scripts,
        new InMemoryResultCache(ResultCache.DEFAULT_MAX_BYTES),
        new CallObserver(AuditTrail.OFF),
        new AdapterFailureLog(),
        PageCursors.create(Optional.empty()));
  }

  /** The weather tool, cached, binding the caller's subject and tenant besides the city. */
  private Tool byClaims() {
    Statement statement =
        new Statement.Sql(
            "select forecast from weather where city = {{ inputs.city }} and owner ="
                + " {{ auth.claims.sub }} and tenant = {{ auth.claims.tenant }}",
            "select forecast from weather where city = ? and owner = ? and tenant = ?",
            List.of(
                new Statement.Parameter("city", false),
                new Statement.Parameter("auth.claims.sub", false),
                new Statement.Parameter("auth.claims.tenant", false)));
    Execution.OnAdapter on = (Execution.OnAdapter) weather.execution();
    return new Tool(
        weather.name(),
        weather.description(),
        weather.inputs(),
        new Execution.OnAdapter(on.adapter(), on.connector(), statement),
        Optional.empty(),
        Optional.empty(),
        weather.auth(),
        new CachePolicy(true, Duration.ofMinutes(1)),
        weather.timeout());
  }

  @Test
  void claimsAreBoundFromTheTokenAndCachedResultsNeverCrossSubjectsOrClaimValues() {
    ToolInvoker invoker = withTokens(byClaims());
    JsonNode arguments = Json.MAPPER.readTree("{\"city\":\"Paris\"}");

    invoker.call("weather", arguments, caller("X-User", "alice", "X-Tenant", "t1"));
    invoker.call("weather", arguments, caller("X-User", "bob", "X-Tenant", "t1"));
    invoker.call("weather", arguments, caller("X-User", "alice", "X-Tenant", "t1")); // a hit
    invoker.call("weather", arguments, caller("X-User", "alice", "X-Tenant", "t2"));

    assertThat(stub.executions()).isEqualTo(3);
    assertThat(bound)
        .extracting(v -> v.get("auth.claims.sub") + "/" + v.get("auth.claims.tenant"))
        .containsExactly("alice/t1", "bob/t1", "alice/t2");
  }

  @Test
  void aCachedScriptToolKeysItsResultsByEveryClaimTheScriptCouldRead() {
    // before: only the subject keyed a script tool's results, so alice's answer for tenant t1 was
    // served to alice in tenant t2 (the script reads auth.claims.tenant)
    Tool tool = handler(WRAP);
    Tool cached = cached(tool);
    ToolInvoker invoker = withTokens(cached);
    JsonNode arguments = Json.MAPPER.readTree("{\"city\":\"Paris\"}");

    invoker.call("handled", arguments, caller("X-User", "alice", "X-Tenant", "t1"));
    invoker.call("handled", arguments, caller("X-User", "alice", "X-Tenant", "t1")); // a hit
    invoker.call("handled", arguments, caller("X-User", "alice", "X-Tenant", "t2"));

    assertThat(payloads)
        .extracting(p -> p.path("auth").path("claims").path("tenant").asString())
        .containsExactly("t1", "t2");
  }

  @Test
  void aResultMadeWithTheClientsAnswersOrCapabilitiesIsNotCached() {
    // before: a script's mcp.listRoots answers (or what mcp.canAsk saw) were cached and served to
    // the next caller, who was never asked
    Tool tool = handler(ASKS);
    Tool cached = cached(tool);
    ToolInvoker invoker = invoker(cached, false);

    call(invoker, "handled", "{\"city\":\"Paris\"}");
    call(invoker, "handled", "{\"city\":\"Paris\"}");

    assertThat(stages).containsExactly("script asks.ts", "script asks.ts");
  }

  @Test
  void aClaimTheTokenLacksFailsTheCallBeforeTheStatement() {
    ToolInvoker invoker = withTokens(byClaims());

    ToolOutcome outcome =
        invoker.call(
            "weather", Json.MAPPER.readTree("{\"city\":\"Paris\"}"), caller("X-User", "alice"));

    assertThat(outcome).isEqualTo(new ToolOutcome.Failure("the token carries no claim `tenant`"));
    assertThat(stub.executions()).isZero();
  }

  @Test
  void scriptsGetTheTokensSubjectClaimsAndScopesAndNoAuthWithoutAToken() {
    Tool tool = handler(WRAP);
    withTokens(tool)
        .call("handled", Json.MAPPER.readTree("{\"city\":\"Paris\"}"), caller("X-User", "alice"));
    invoker(tool, false).call("handled", Json.MAPPER.readTree("{\"city\":\"Paris\"}"), caller());

    assertThat(payloads.get(0).path("auth"))
        .isEqualTo(
            Json.MAPPER.readTree(
                "{\"subject\":\"alice\",\"claims\":{\"sub\":\"alice\"},\"scopes\":[\"orders:read\"]}"));
    assertThat(payloads.get(1).has("auth")).isFalse();
  }

  /**
   * Every failure the caller can fix is a tool failure with a message saying what, and the stages
   * after the one that failed do not run.
   *
   * @param handler the script of a handler tool, or {@code -} for the statement tool
   * @param transform its input transform, or {@code -}
   * @param key whether the tool asks for an API key ({@code yes} sends one, {@code no} does not)
   * @param stagesRun the stages that ran, {@code ;} between them
   */
  @ParameterizedTest(name = "{4}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # handler | transform | key | arguments         | failure                                                                               | stages run
          -         | lower.ts  | no  | {}                | authentication failed: missing API key                                                | auth
          -         | lower.ts  | yes | {"town": "Paris"} | invalid arguments: unknown input `town` (inputs: city); missing required input `city` | auth
          -         | throws.ts | -   | {"city": "Paris"} | the script threw: boom                                                                | script throws.ts
          -         | list.ts   | -   | {"city": "Paris"} | the input transform must return an object of inputs                                   | script list.ts
          -         | -         | -   | {"city": "fail"}  | no such table: weather                                                                | execute
          -         | -         | -   | {"city": "slow"}  | the statement ran longer than 2 s and was cancelled                                   | execute
          slow.ts   | -         | -   | {"city": "Paris"} | the script ran longer than 2 s                                                        | script slow.ts
          """)
  void aFailureTheCallerCanFixIsAToolFailureAndStopsThePipeline(
      String handler,
      String transform,
      String key,
      String arguments,
      String failure,
      String stagesRun) {
    Tool tool =
        handler.equals("-")
            ? weather(optionalScript(transform), Optional.empty(), false)
            : handler(script(handler));
    ToolInvoker invoker = invoker(tool, !key.equals("-"));
    Caller caller = key.equals("yes") ? caller("X-API-Key", "k1") : caller();

    assertThat(invoker.call(tool.name(), Json.MAPPER.readTree(arguments), caller))
        .isEqualTo(new ToolOutcome.Failure(failure));
    assertThat(stages).containsExactly(stagesRun.split(";"));
  }

  /** {@code tool} with its results cached for a minute. */
  private static Tool cached(Tool tool) {
    return new Tool(
        tool.name(),
        tool.description(),
        tool.inputs(),
        tool.execution(),
        tool.inputMapper(),
        tool.outputMapper(),
        tool.auth(),
        new CachePolicy(true, Duration.ofMinutes(1)),
        tool.timeout());
  }

  private static ScriptRef script(String file) {
    return new ScriptRef("app/tools/weather/" + file, "default");
  }

  private static Optional<ScriptRef> optionalScript(String file) {
    return file.equals("-") ? Optional.empty() : Optional.of(script(file));
  }

  @Test
  void anUnavailableDatabaseIsAServerFault() {
    assertThatThrownBy(() -> call(plain(), "weather", "{\"city\":\"down\"}"))
        .isInstanceOf(ToolServerException.class)
        .hasMessage("the database of tool `weather` is unavailable");
    assertThat(stages).containsExactly("execute");
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
  void aCursorThatIsNotAStringOrNotACursorStopsTheCallBeforeTheStatement() {
    ToolInvoker invoker = plain();
    assertThat(call(invoker, "weather", "{\"city\":\"Paris\",\"cursor\":5}"))
        .isEqualTo(
            new ToolOutcome.Failure(
                "invalid arguments: `cursor` must be a string: a result's `next_cursor`"));
    assertThat(call(invoker, "weather", "{\"city\":\"Paris\",\"cursor\":\"%%%\"}"))
        .isInstanceOfSatisfying(
            ToolOutcome.Failure.class,
            f -> assertThat(f.message()).startsWith("invalid cursor: it is not a cursor"));
    assertThat(stub.executions()).isZero();
    assertThat(call(invoker, "weather", "{\"city\":\"Paris\",\"cursor\":\"\"}"))
        .as("an empty cursor is the first page")
        .isInstanceOf(ToolOutcome.Success.class);
  }

  @Test
  void anUnknownToolIsNotCalled() {
    assertThatThrownBy(() -> call(plain(), "nope", "{}"))
        .isInstanceOf(UnknownToolException.class)
        .hasMessage("Unknown tool: nope");
  }

  @Test
  void theBuiltInSearchRanksTheToolsAndChecksItsArguments() {
    ToolInvoker invoker = plain();

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

  @Test
  void aSearchQueryOfMegabytesIsRefusedBeforeItIsRanked() {
    // a million one-letter words: each compared with every word of every tool took minutes
    String words = "a ".repeat(1_000_000);
    assertThat(call(plain(), "search", "{\"query\":\"" + words + "\"}"))
        .isEqualTo(
            new ToolOutcome.Failure(
                "invalid arguments: `query` holds 2000000 characters; give a few words describing"
                    + " the task, at most 1000 characters"));
    assertThat(ToolSearch.inputSchema().path("properties").path("query").path("maxLength").asInt())
        .isEqualTo(1000);
  }
}
