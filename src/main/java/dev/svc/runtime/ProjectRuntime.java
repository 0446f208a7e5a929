package dev.svc.runtime;

import dev.svc.SvcException;
import dev.svc.audit.AuditTrail;
import dev.svc.auth.AuthPlugin;
import dev.svc.cache.InMemoryResultCache;
import dev.svc.cache.RedisResultCache;
import dev.svc.cache.ResultCache;
import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import dev.svc.log.Log;
import dev.svc.log.StartupTrace;
import dev.svc.model.Adapter;
import dev.svc.model.EnvString;
import dev.svc.model.MissingVariableException;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.script.ScriptRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A project being served: owns the open connectors, the script runner, the result cache and the
 * auth plugins, and closes them (connectors concurrently) when serving stops.
 */
public final class ProjectRuntime implements AutoCloseable {
  private static final Log LOG = Log.tagged("runtime");

  /**
   * The environment variable naming where relative SQLite database files go instead of the project
   * directory (relative to it when relative): a writable volume when the project itself is
   * read-only, as in a container image (docs/deploy.md).
   */
  public static final String DATA_DIRECTORY_VARIABLE = "SVC_DATA_DIR";

  /** How long one adapter's start-up connectivity check may take. */
  public static final Duration CHECK_TIMEOUT = Duration.ofSeconds(10);

  private final Model model;

  /** The open adapters by name: each one's resolved settings and its connector. */
  private final Map<String, OpenAdapter> adapters;

  private final ScriptRunner scripts;
  private final ToolInvoker tools;
  private final ResourceContents resources;
  private final PromptRenderer prompts;
  private final ResultCache cache;
  private final CallObserver observer;
  private final AdapterFailureLog adapterFailures;
  private final OutputSchemas outputSchemas;

  private ProjectRuntime(
      Model model,
      Map<String, OpenAdapter> adapters,
      ScriptRunner scripts,
      ToolInvoker tools,
      ResourceContents resources,
      PromptRenderer prompts,
      ResultCache cache,
      CallObserver observer,
      AdapterFailureLog adapterFailures,
      OutputSchemas outputSchemas) {
    this.model = model;
    this.adapters = adapters;
    this.scripts = scripts;
    this.tools = tools;
    this.resources = resources;
    this.prompts = prompts;
    this.cache = cache;
    this.observer = observer;
    this.adapterFailures = adapterFailures;
    this.outputSchemas = outputSchemas;
  }

  /**
   * What starting a project needs besides its model.
   *
   * @param audit where tool calls are audited; kept by the instance across reloads
   */
  public record Settings(
      Environment environment,
      Path projectDirectory,
      Function<ResolvedAdapter, Connector> connectorFactory,
      ScriptRunner scripts,
      long cacheBytes,
      AuditTrail audit,
      boolean tokensVerifiedByCaller) {

    public Settings(
        Environment environment,
        Path projectDirectory,
        Function<ResolvedAdapter, Connector> connectorFactory,
        ScriptRunner scripts,
        long cacheBytes,
        AuditTrail audit) {
      this(environment, projectDirectory, connectorFactory, scripts, cacheBytes, audit, false);
    }

    public Settings(
        Environment environment,
        Path projectDirectory,
        Function<ResolvedAdapter, Connector> connectorFactory,
        ScriptRunner scripts,
        long cacheBytes) {
      this(environment, projectDirectory, connectorFactory, scripts, cacheBytes, AuditTrail.OFF);
    }

    /**
     * Settings whose calls carry a token verified already ({@code svc test}'s {@code claims}): the
     * {@code jwt} plugins check its scopes, as behind {@code server.auth}, and verify nothing.
     */
    public Settings withTokensVerifiedByCaller() {
      return new Settings(
          environment, projectDirectory, connectorFactory, scripts, cacheBytes, audit, true);
    }
  }

  /**
   * Resolves env placeholders, opens every adapter a tool uses in parallel and checks it.
   *
   * @throws StartupException listing every missing variable or unreachable adapter
   */
  public static ProjectRuntime start(Model model, Settings settings) {
    List<Diagnostic> problems = new ArrayList<>();
    ResultCache cache = cache(model, settings, problems);
    StartupTrace.mark("cache made");
    try {
      return open(model, settings, Map.of(), cache, new AdapterFailureLog(), problems);
    } catch (RuntimeException e) {
      cache.close();
      throw e;
    }
  }

  /**
   * The result cache {@code tools.cache.store} asks for: in Redis on the adapter it names, else in
   * memory. An unreachable Redis does not stop the start: every lookup is a miss until it answers
   * (see {@link RedisResultCache}). The store is opened once: a reload keeps it.
   *
   * @param problems where a variable of the store adapter's settings that is not set is reported
   *     (then the cache is in memory, and the start fails with the other problems)
   */
  private static ResultCache cache(Model model, Settings settings, List<Diagnostic> problems) {
    Optional<Adapter> store =
        model
            .service()
            .cacheStore()
            .map(name ->
                model.adapters().stream()
                    .filter(a -> a.name().equals(name))
                    .findFirst()
                    .orElseThrow(
                        () -> new IllegalStateException("adapter `" + name + "` not in model")));
    if (store.isEmpty()) {
      return new InMemoryResultCache(settings.cacheBytes());
    }
    // an adapter tools use too has its variables reported by open(): once is enough
    List<Diagnostic> own = new ArrayList<>();
    Optional<ResolvedAdapter> resolved = resolve(store.get(), settings, own);
    if (resolved.isEmpty()) {
      if (!model.usedAdapters().contains(store.get())) {
        problems.addAll(own);
      }
      return new InMemoryResultCache(settings.cacheBytes());
    }
    return new RedisResultCache(resolved.get(), model, settings.cacheBytes());
  }

  /**
   * A runtime for a changed model that keeps this one's connectors whose adapter did not change and
   * its cache (minus the results of tools that changed) and its log of adapter outages. This
   * runtime keeps serving until the caller swaps; connectors it no longer needs are listed by
   * {@link #retiredBy}.
   *
   * @throws StartupException when the new model cannot be served (this one is untouched)
   */
  public ProjectRuntime reload(Model next, Settings settings) {
    return open(next, settings, Map.copyOf(adapters), cache, adapterFailures, new ArrayList<>());
  }

  /** Connectors of this runtime that {@code next} does not use: close them once calls drain. */
  public List<Connector> retiredBy(ProjectRuntime next) {
    List<Connector> retired = new ArrayList<>();
    adapters.forEach((name, open) -> {
      OpenAdapter kept = next.adapters.get(name);
      if (kept == null || kept.connector() != open.connector()) {
        retired.add(open.connector());
      }
    });
    return retired;
  }

  /** An adapter with its connector: a reload keeps the connector while the settings are equal. */
  private record OpenAdapter(ResolvedAdapter adapter, Connector connector) {}

  private static Map<String, Connector> connectorsOf(Map<String, OpenAdapter> adapters) {
    Map<String, Connector> connectors = new LinkedHashMap<>();
    adapters.forEach((name, open) -> connectors.put(name, open.connector()));
    return connectors;
  }

  /**
   * @param problems what the start found already (the result cache's): the start fails with them
   *     and this method's own, all at once
   */
  private static ProjectRuntime open(
      Model model,
      Settings settings,
      Map<String, OpenAdapter> previous,
      ResultCache cache,
      AdapterFailureLog adapterFailures,
      List<Diagnostic> problems) {
    Map<String, ResolvedAdapter> adapters = new LinkedHashMap<>();
    for (Adapter adapter : model.usedAdapters()) {
      resolve(adapter, settings, problems).ifPresent(r -> adapters.put(adapter.name(), r));
    }
    Map<String, AuthPlugin> auth = ToolAuthPlugins.of(model, settings, problems);
    model
        .agents()
        .forEach(agent ->
            agent
                .model()
                .options()
                .values()
                .forEach(v -> require(v, settings.environment(), problems)));
    if (!problems.isEmpty()) {
      throw new StartupException(problems);
    }
    Map<String, OpenAdapter> reused = new LinkedHashMap<>();
    Map<String, ResolvedAdapter> toOpen = new LinkedHashMap<>();
    adapters.forEach((name, adapter) -> {
      OpenAdapter old = previous.get(name);
      if (old != null && old.adapter().equals(adapter)) {
        reused.put(name, old);
      } else {
        toOpen.put(name, adapter);
      }
    });
    StartupTrace.mark("adapters resolved");
    Map<String, Connector> opened = open(toOpen, settings.connectorFactory(), problems);
    StartupTrace.mark("adapters open");
    if (!problems.isEmpty()) {
      closeAll(opened);
      throw new StartupException(problems);
    }
    Map<String, OpenAdapter> all = new LinkedHashMap<>(reused);
    toOpen.forEach((name, adapter) -> all.put(name, new OpenAdapter(adapter, opened.get(name))));
    CallObserver observer = new CallObserver(settings.audit());
    ToolInvoker invoker =
        new ToolInvoker(
            model,
            connectorsOf(all),
            auth,
            settings.scripts(),
            cache.serving(model),
            observer,
            adapterFailures,
            PageCursors.create(settings.environment().get(PageCursors.SECRET)));
    ResourceContents resources = new ResourceContents(model, settings.projectDirectory());
    StartupTrace.mark("invoker made");
    OutputSchemas outputSchemas = OutputSchemas.of(model, connectorsOf(all));
    StartupTrace.mark("output schemas");
    return new ProjectRuntime(
        model,
        all,
        settings.scripts(),
        invoker,
        resources,
        new PromptRenderer(resources, settings.projectDirectory()),
        cache,
        observer,
        adapterFailures,
        outputSchemas);
  }

  private static Optional<ResolvedAdapter> resolve(
      Adapter adapter, Settings settings, List<Diagnostic> problems) {
    try {
      return Optional.of(
          ResolvedAdapter.of(
              adapter,
              settings.environment()::get,
              settings.projectDirectory(),
              settings
                  .environment()
                  .get(DATA_DIRECTORY_VARIABLE)
                  .filter(dir -> !dir.isBlank())
                  .map(dir -> settings.projectDirectory().resolve(dir).normalize())
                  .orElse(settings.projectDirectory())));
    } catch (MissingVariableException e) {
      problems.add(missing(e));
      return Optional.empty();
    }
  }

  private static void require(EnvString value, Environment environment, List<Diagnostic> problems) {
    try {
      value.resolve(environment::get);
    } catch (MissingVariableException e) {
      problems.add(missing(e));
    }
  }

  /** A variable a value names that the environment does not set, as a start-up problem. */
  static Diagnostic missing(MissingVariableException e) {
    return Diagnostic.error(
            "missing-env", e.origin(), "environment variable " + e.variable() + " is not set")
        .withHint("set it in the environment or in .env");
  }

  private static Map<String, Connector> open(
      Map<String, ResolvedAdapter> adapters,
      Function<ResolvedAdapter, Connector> factory,
      List<Diagnostic> problems) {
    Map<String, Connector> connectors = new ConcurrentHashMap<>();
    Map<String, Future<?>> checks = new LinkedHashMap<>();
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (ResolvedAdapter adapter : adapters.values()) {
        checks.put(
            adapter.name(),
            executor.submit(() -> {
              long started = System.nanoTime();
              Connector connector = factory.apply(adapter);
              connectors.put(adapter.name(), connector);
              connector.check(Deadline.after(CHECK_TIMEOUT));
              LOG.info(
                  "adapter ready",
                  "adapter",
                  adapter.name(),
                  "connector",
                  adapter.connector().wireName(),
                  "ms",
                  (System.nanoTime() - started) / 1_000_000);
              return null;
            }));
      }
      for (Map.Entry<String, Future<?>> check : checks.entrySet()) {
        try {
          check.getValue().get();
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          String reason =
              cause instanceof ConnectorUnavailableException
                  ? cause.getMessage()
                  : String.valueOf(cause);
          String code =
              cause instanceof ConnectorUnavailableException unavailable
                  ? unavailable.code()
                  : ConnectorUnavailableException.UNAVAILABLE;
          problems.add(
              Diagnostic.error(code, Origin.ofFile("adapter " + check.getKey()), reason)
                  .withHint(
                      "check the adapter's connection_string and that the database is running"));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SvcException("interrupted while opening adapters", e);
        }
      }
    }
    return connectors;
  }

  public Model model() {
    return model;
  }

  /** The MCP output schema of each tool that has one (declared, or derived at start). */
  public OutputSchemas outputSchemas() {
    return outputSchemas;
  }

  public ToolInvoker tools() {
    return tools;
  }

  public ResourceContents resources() {
    return resources;
  }

  public PromptRenderer prompts() {
    return prompts;
  }

  /** The script runner this runtime calls (a reload may share it with the next runtime). */
  public ScriptRunner scripts() {
    return scripts;
  }

  public ResultCache cache() {
    return cache;
  }

  /** Records the spans, metrics and audit lines of tool calls and agent tasks. */
  public CallObserver observer() {
    return observer;
  }

  /** The open connectors by adapter name (for pool metrics). */
  public Map<String, Connector> connectors() {
    return Collections.unmodifiableMap(connectorsOf(adapters));
  }

  /** Closes the given connectors concurrently (used for connectors a reload retired). */
  public static void close(List<Connector> connectors) {
    closeAll(
        connectors.stream()
            .collect(
                Collectors.toMap(
                    c -> String.valueOf(System.identityHashCode(c)), c -> c, (a, b) -> a)));
  }

  /**
   * Closes every connector concurrently, then the script runner and the result cache's connections
   * (a reload's runtimes share them: close only the last). Never throws.
   */
  @Override
  public void close() {
    closeAll(connectorsOf(adapters));
    cache.close();
    try {
      scripts.close();
    } catch (RuntimeException e) {
      LOG.warn("closing the script runner failed", "error", e.getMessage());
    }
  }

  private static void closeAll(Map<String, Connector> connectors) {
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (Connector connector : connectors.values()) {
        executor.submit(connector::close);
      }
    }
  }
}
