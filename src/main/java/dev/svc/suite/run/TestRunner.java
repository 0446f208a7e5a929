package dev.svc.suite.run;

import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.call.VerifiedToken;
import dev.svc.connector.Connector;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.json.Json;
import dev.svc.model.CachePolicy;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Execution;
import dev.svc.model.MissingVariableException;
import dev.svc.model.Model;
import dev.svc.model.Tool;
import dev.svc.project.Environment;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.runtime.StartupException;
import dev.svc.runtime.ToolOutcome;
import dev.svc.script.ScriptRunner;
import dev.svc.suite.AgentCase;
import dev.svc.suite.AgentSuite;
import dev.svc.suite.Answer;
import dev.svc.suite.Mismatch;
import dev.svc.suite.PromptCase;
import dev.svc.suite.ResourceCase;
import dev.svc.suite.Suite;
import dev.svc.suite.TestCase;
import dev.svc.suite.ToolCase;
import dev.svc.suite.ToolSuite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs suites on the real runtime (docs/testing.md). Each suite gets a runtime of its own holding
 * what it needs (its tool, every tool for an agent, none for a prompt or resource) with the result
 * cache off, SQLite files in a fresh directory, and the tested adapter maybe replaced by SQLite or
 * moved to a fresh PostgreSQL schema. A tool case is one {@link dev.svc.runtime.ToolInvoker#call},
 * the call an MCP {@code tools/call} makes; prompt and resource cases go through {@link
 * ContentAnswers}, agent cases through {@link AgentAnswers}.
 */
public final class TestRunner {
  /**
   * What a run needs besides the model.
   *
   * @param connectors opens an adapter's connector (the one {@code svc start} uses)
   * @param scripts makes a script runner for one suite (its runtime closes it)
   */
  public record Settings(
      Environment environment,
      Path projectDirectory,
      Function<ResolvedAdapter, Connector> connectors,
      Supplier<ScriptRunner> scripts) {}

  private final Settings settings;

  public TestRunner(Settings settings) {
    this.settings = settings;
  }

  /**
   * Runs every case {@code selected} accepts (it is given {@code <subject>/<case>}: a tool or
   * prompt name, or a resource URI), suite by suite.
   *
   * @param done told of each suite as it ends
   */
  public List<SuiteResult> run(
      Model model, List<Suite> suites, Predicate<String> selected, Consumer<SuiteResult> done) {
    List<SuiteResult> results = new ArrayList<>();
    for (Suite suite : suites) {
      List<? extends TestCase> cases =
          suite.cases().stream()
              .filter(c -> selected.test(suite.subject() + "/" + c.name()))
              .toList();
      if (cases.isEmpty()) {
        continue;
      }
      SuiteResult result = run(model, suite, cases);
      results.add(result);
      done.accept(result);
    }
    return results;
  }

  private SuiteResult run(Model model, Suite suite, List<? extends TestCase> cases) {
    long start = System.nanoTime();
    Optional<Tool> tool =
        suite instanceof ToolSuite tested
            ? Optional.of(model.tool(tested.tool()).orElseThrow().withCache(CachePolicy.OFF))
            : Optional.empty();
    // an agent calls any tool of the project it may: they are all there
    List<Tool> tools =
        suite instanceof AgentSuite
            ? model.tools().stream().map(t -> t.withCache(CachePolicy.OFF)).toList()
            : tool.map(List::of).orElse(List.of());
    Path data = temporaryDirectory();
    Optional<String> adapter =
        tool.flatMap(t ->
            t.execution() instanceof Execution.OnAdapter on
                ? Optional.of(on.adapter())
                : Optional.empty());
    boolean inMemory = suite instanceof ToolSuite tested && tested.inMemorySqlite();
    boolean freshSchema = suite instanceof ToolSuite tested && tested.freshSchema();
    Optional<FreshSchema> schema = Optional.empty();
    try {
      if (freshSchema) {
        schema = Optional.of(FreshSchema.create(resolve(model, adapter.orElseThrow(), data)));
      }
      Optional<FreshSchema> made = schema;
      Function<ResolvedAdapter, ResolvedAdapter> adapters =
          opened -> {
            ResolvedAdapter here = inDataDirectory(opened, data);
            if (adapter.filter(opened.name()::equals).isEmpty()) {
              return here;
            }
            if (inMemory) {
              return inMemorySqlite(opened, data);
            }
            return made.map(s -> s.applyTo(here)).orElse(here);
          };
      return run(model, suite, cases, tools, adapters, start);
    } catch (Fixtures.FixtureException e) {
      return new SuiteResult(
          suite.title(), suite.file(), List.of(), Optional.of(e.getMessage()), since(start));
    } catch (MissingVariableException e) {
      return new SuiteResult(
          suite.title(),
          suite.file(),
          List.of(),
          Optional.of("the adapter cannot be resolved: " + e.getMessage()),
          since(start));
    } catch (StartupException e) {
      // the script runner's settings (SVC_SCRIPT_* in .env) are read before the runtime starts
      return notStarted(suite, e, start);
    } finally {
      schema.ifPresent(FreshSchema::close);
      delete(data);
    }
  }

  /** Runs a suite's cases on a runtime of their own, opened with {@code adapters}. */
  private SuiteResult run(
      Model model,
      Suite suite,
      List<? extends TestCase> cases,
      List<Tool> tools,
      Function<ResolvedAdapter, ResolvedAdapter> adapters,
      long start) {
    ScriptRunner scripts = settings.scripts().get();
    ProjectRuntime.Settings opened = settings(adapters, scripts);
    if (cases.stream().anyMatch(c -> c instanceof ToolCase tool && tool.claims().isPresent())) {
      opened = opened.withTokensVerifiedByCaller();
    }
    try (ProjectRuntime runtime = start(underTest(model, tools), opened, scripts)) {
      switch (suite) {
        case ToolSuite tested ->
            Fixtures.apply(tested, model, runtime, settings.projectDirectory());
        case AgentSuite agent ->
            agent
                .fixtures()
                .forEach((name, files) ->
                    Fixtures.apply(name, files, runtime, settings.projectDirectory()));
        default -> {}
      }
      List<CaseResult> results = new ArrayList<>();
      for (TestCase testCase : cases) {
        results.add(run(runtime, model, testCase));
      }
      return new SuiteResult(suite.title(), suite.file(), results, Optional.empty(), since(start));
    } catch (StartupException e) {
      return notStarted(suite, e, start);
    }
  }

  private static SuiteResult notStarted(Suite suite, StartupException e, long start) {
    return new SuiteResult(
        suite.title(),
        suite.file(),
        List.of(),
        Optional.of(
            "the runtime could not start:\n"
                + String.join("\n", e.problems().stream().map(Diagnostic::render).toList())),
        since(start));
  }

  /**
   * The adapter named {@code name} with its placeholders filled in, as the runtime will open it.
   */
  private ResolvedAdapter resolve(Model model, String name, Path data) {
    return ResolvedAdapter.of(
        model.adapter(name).orElseThrow(),
        settings.environment()::get,
        settings.projectDirectory(),
        data);
  }

  private CaseResult run(ProjectRuntime runtime, Model model, TestCase testCase) {
    long start = System.nanoTime();
    Answer answer;
    List<Mismatch> scriptProblems = new ArrayList<>();
    try {
      switch (testCase) {
        case ToolCase call -> answer = call(runtime, call);
        case PromptCase get -> answer = ContentAnswers.prompt(runtime, model, get);
        case ResourceCase read -> answer = ContentAnswers.resource(runtime, read);
        case AgentCase task -> {
          AgentAnswers.Run run = AgentAnswers.run(runtime, model, settings.environment(), task);
          if (run.scriptEnded().isPresent()) {
            return new CaseResult(
                testCase.name(),
                testCase.origin(),
                Optional.empty(),
                List.of(),
                run.scriptEnded(),
                since(start));
          }
          answer = run.answer();
          run.unusedTurns().ifPresent(scriptProblems::add);
        }
      }
    } catch (RuntimeException e) {
      return new CaseResult(
          testCase.name(),
          testCase.origin(),
          Optional.empty(),
          List.of(),
          Optional.of("server fault: " + describe(e)),
          since(start));
    }
    List<Mismatch> mismatches = new ArrayList<>(testCase.check(answer));
    mismatches.addAll(scriptProblems);
    return new CaseResult(
        testCase.name(),
        testCase.origin(),
        Optional.of(answer.describe()),
        mismatches,
        Optional.empty(),
        since(start));
  }

  /** Starts a runtime; a runtime that does not start leaves its script runner to be closed here. */
  private static ProjectRuntime start(
      Model model, ProjectRuntime.Settings settings, ScriptRunner scripts) {
    try {
      return ProjectRuntime.start(model, settings);
    } catch (RuntimeException e) {
      scripts.close();
      throw e;
    }
  }

  /** A tool case: the call an MCP {@code tools/call} makes. */
  private static Answer call(ProjectRuntime runtime, ToolCase testCase) {
    Caller caller =
        new Caller(
                "test-" + Integer.toHexString(testCase.name().hashCode()),
                headers(testCase),
                Optional.empty(),
                testCase.claims().map(TestRunner::token))
            .via("test");
    Tool tool = runtime.model().tools().getFirst();
    return switch (runtime.tools().call(tool.name(), testCase.arguments(), caller)) {
      case ToolOutcome.Success success ->
          Answer.success(success.payload(), success.truncation().isPresent());
      case ToolOutcome.Failure failure -> Answer.failure(failure.message());
    };
  }

  /**
   * A case's {@code claims} as the token {@code server.auth} would have verified: {@code sub}
   * (default {@code test}), the scopes of {@code scope}, {@code exp} or an hour from now.
   */
  static VerifiedToken token(ObjectNode written) {
    ObjectNode claims = written.deepCopy();
    if (!claims.has("sub")) {
      claims.put("sub", "test");
    }
    Set<String> scopes = new LinkedHashSet<>();
    for (String scope : claims.path("scope").asString("").split(" ")) {
      if (!scope.isEmpty()) {
        scopes.add(scope);
      }
    }
    Instant expires =
        claims.path("exp").canConvertToLong()
            ? Instant.ofEpochSecond(claims.path("exp").asLong())
            : Instant.now().plus(Duration.ofHours(1));
    @SuppressWarnings("unchecked")
    Map<String, Object> values = Json.MAPPER.convertValue(claims, Map.class);
    return new VerifiedToken(claims.path("sub").asString(), scopes, expires, values);
  }

  private static String describe(RuntimeException e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    Throwable cause = e.getCause();
    return cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())
        ? message + ": " + cause.getMessage()
        : message;
  }

  private static Headers headers(ToolCase testCase) {
    List<String> pairs = new ArrayList<>();
    for (Map.Entry<String, String> header : testCase.headers().entrySet()) {
      pairs.add(header.getKey());
      pairs.add(header.getValue());
    }
    return Headers.of(pairs.toArray(String[]::new));
  }

  /**
   * The model a suite runs: the one tool it tests (every tool for an agent, none for a prompt or
   * resource), with no shared result cache, so that a case answers from the database every time and
   * opens only that tool's adapter.
   */
  static Model underTest(Model model, List<Tool> tools) {
    var service = model.service();
    return new Model(
        service.withLaterFields(
            service.limits(), service.rateLimitStore(), Optional.empty(), service.tasks()),
        model.adapters(),
        tools,
        model.prompts(),
        model.resources(),
        model.resourceTemplates(),
        model.agents(),
        model.scripts());
  }

  /**
   * Settings opening each adapter as {@code adapters} says: SQLite files with relative paths in a
   * directory of the suite's own, the tested adapter maybe replaced or moved to a fresh schema.
   */
  private ProjectRuntime.Settings settings(
      Function<ResolvedAdapter, ResolvedAdapter> adapters, ScriptRunner scripts) {
    return new ProjectRuntime.Settings(
        settings.environment(),
        settings.projectDirectory(),
        adapter -> settings.connectors().apply(adapters.apply(adapter)),
        scripts,
        0);
  }

  /** {@code adapter} as a fresh in-memory SQLite database ({@code in_memory_sqlite: true}). */
  static ResolvedAdapter inMemorySqlite(ResolvedAdapter adapter, Path data) {
    return new ResolvedAdapter(
        adapter.name(),
        ConnectorKind.SQLITE,
        ":memory:",
        Map.of(),
        adapter.projectDirectory(),
        data);
  }

  static ResolvedAdapter inDataDirectory(ResolvedAdapter adapter, Path data) {
    return new ResolvedAdapter(
        adapter.name(),
        adapter.connector(),
        adapter.connectionString(),
        adapter.options(),
        adapter.projectDirectory(),
        data);
  }

  private static Path temporaryDirectory() {
    try {
      return Files.createTempDirectory("svc-test-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make a temporary directory", e);
    }
  }

  private static void delete(Path directory) {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      // a leftover temporary directory is harmless
    }
  }

  private static Duration since(long start) {
    return Duration.ofNanos(System.nanoTime() - start);
  }
}
