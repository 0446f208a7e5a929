package dev.svc.cli;

import dev.svc.agent.AgentChecks;
import dev.svc.audit.AuditTrail;
import dev.svc.cache.ResultCache;
import dev.svc.connector.Connector;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.log.Log;
import dev.svc.log.StartupTrace;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.protocol.EndpointAuth;
import dev.svc.protocol.a2a.A2aServer;
import dev.svc.protocol.a2a.TaskStores;
import dev.svc.protocol.console.DevConsole;
import dev.svc.protocol.mcp.McpServer;
import dev.svc.protocol.mcp.McpSessions;
import dev.svc.protocol.mcp.SessionTokens;
import dev.svc.ratelimit.RateLimiter;
import dev.svc.ratelimit.RateLimiters;
import dev.svc.runtime.AdapterReadiness;
import dev.svc.runtime.ModelChanges;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.runtime.RuntimeMetrics;
import dev.svc.runtime.StartPreload;
import dev.svc.runtime.StartupException;
import dev.svc.script.PooledScriptRunner;
import dev.svc.script.ScriptMemory;
import dev.svc.script.ScriptRunner;
import dev.svc.server.HttpServer;
import dev.svc.server.ServerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A running svc instance: the project runtime, the protocol servers and the HTTP server, started in
 * that order (the port opens only once every adapter is ready) and stopped in reverse.
 */
public final class Instance implements AutoCloseable {
  private static final Log LOG = Log.tagged("svc");

  private final AtomicReference<ProjectRuntime> runtime;
  private final HttpServer http;
  private final McpServer mcp;
  private final A2aServer agents;
  private final Options options;
  private final Object reloading = new Object();
  private final RuntimeMetrics gauges;
  private final RateLimiter limiter;
  private final Optional<DevConsole> console;

  /** The memory ceiling of every script runner of this instance, the reloads' included. */
  private final ScriptMemory scriptMemory;

  private Instance(
      AtomicReference<ProjectRuntime> runtime,
      HttpServer http,
      McpServer mcp,
      A2aServer agents,
      Options options,
      ScriptMemory scriptMemory,
      RateLimiter limiter,
      Optional<DevConsole> console) {
    this.runtime = runtime;
    this.console = console;
    this.limiter = limiter;
    this.http = http;
    this.mcp = mcp;
    this.agents = agents;
    this.options = options;
    this.scriptMemory = scriptMemory;
    this.gauges = RuntimeMetrics.register(runtime::get);
  }

  /** Everything launching needs besides the model. */
  public record Options(
      Environment environment,
      Path projectDirectory,
      String address,
      int port,
      boolean watch,
      Function<ResolvedAdapter, Connector> connectors,
      A2aServer.Settings agents,
      AuditTrail audit,
      boolean console) {

    public Options(
        Environment environment,
        Path projectDirectory,
        String address,
        int port,
        boolean watch,
        Function<ResolvedAdapter, Connector> connectors,
        A2aServer.Settings agents,
        AuditTrail audit) {
      this(environment, projectDirectory, address, port, watch, connectors, agents, audit, false);
    }

    /** These options with the dev console at {@code /ui} ({@code svc start --ui}) or without. */
    public Options withConsole(boolean served) {
      return new Options(
          environment, projectDirectory, address, port, watch, connectors, agents, audit, served);
    }

    public Options(
        Environment environment,
        Path projectDirectory,
        String address,
        int port,
        boolean watch,
        Function<ResolvedAdapter, Connector> connectors,
        A2aServer.Settings agents) {
      this(environment, projectDirectory, address, port, watch, connectors, agents, AuditTrail.OFF);
    }

    public Options(
        Environment environment,
        Path projectDirectory,
        String address,
        int port,
        boolean watch,
        Function<ResolvedAdapter, Connector> connectors) {
      this(
          environment,
          projectDirectory,
          address,
          port,
          watch,
          connectors,
          A2aServer.Settings.defaults());
    }
  }

  /**
   * Opens the project's adapters, then starts listening.
   *
   * @throws dev.svc.runtime.StartupException when an adapter or variable is missing
   * @throws dev.svc.server.ServerStartException when the port cannot be bound
   */
  public static Instance launch(Model model, Options options) {
    // a port in use is said before any adapter opens (which can take seconds)
    HttpServer.checkPortFree(options.address(), options.port());
    StartPreload.inBackground(model);
    // the HTTP server starts (without listening) while the adapters open: they are independent
    AtomicReference<McpServer> mcpRoute = new AtomicReference<>();
    AtomicReference<A2aServer> agentRoute = new AtomicReference<>();
    ServerSettings serverSettings =
        new ServerSettings(
            options.address(),
            options.port(),
            model.service().allowedHosts(),
            model.service().allowedOrigins(),
            model.service().limits().maxBodyBytes(),
            new ServerSettings.Metrics(
                model.service().metrics().enabled(), model.service().metrics().port()),
            new ServerSettings.Limits(
                model.service().limits().headerTimeout(),
                model.service().limits().bodyTimeout(),
                model.service().limits().connectionsPerClient(),
                model.service().limits().drainTimeout()));
    Optional<EndpointAuth> endpointAuth =
        model.service().auth().map(a -> EndpointAuth.of(a, options.environment()::get));
    AtomicReference<ProjectRuntime> runtime = new AtomicReference<>();
    Optional<DevConsole> console =
        options.console()
            ? Optional.of(new DevConsole(() -> runtime.get().model()))
            : Optional.empty();
    CompletableFuture<HttpServer> preparing =
        CompletableFuture.supplyAsync(
            () ->
                HttpServer.prepare(
                    serverSettings,
                    call -> mcpRoute.get().handle(call),
                    call -> agentRoute.get().handle(call),
                    endpointAuth,
                    console),
            command -> Thread.ofPlatform().name("svc-http-start").start(command));
    ScriptMemory scriptMemory = ScriptSandbox.memory(options.environment());
    PooledScriptRunner scripts = ScriptSandbox.runner(model, options.environment(), scriptMemory);
    StartupTrace.mark("script runner");
    // the adapters open (and describe the statements) on a thread of their own while this one
    // makes the agents' and MCP's servers, which read the runtime only when a request comes
    CompletableFuture<ProjectRuntime> starting =
        CompletableFuture.supplyAsync(
            () -> {
              ProjectRuntime started = ProjectRuntime.start(model, settings(options, scripts));
              StartupTrace.mark("project runtime");
              return started;
            },
            command -> Thread.ofPlatform().name("svc-runtime-start").start(command));
    A2aServer agents = null;
    RateLimiter limiter = null;
    McpServer mcp;
    try {
      List<Diagnostic> agentProblems = AgentChecks.check(model, options.environment());
      if (!agentProblems.isEmpty()) {
        throw new StartupException(agentProblems);
      }
      // one count per tool and principal, whichever protocol the call comes by
      limiter = RateLimiters.open(model, options.environment(), options.projectDirectory());
      StartupTrace.mark("rate limiter");
      A2aServer.Settings agentSettings =
          TaskStores.open(model, options.environment(), options.projectDirectory())
              .map(options.agents()::withStore)
              .orElse(options.agents())
              .withRunLimits(
                  model.service().tasks().maxRunning(), model.service().tasks().maxWaiting());
      StartupTrace.mark("task store");
      agents =
          new A2aServer(
              runtime::get,
              options.environment(),
              agentSettings,
              limiter,
              endpointAuth.map(EndpointAuth::policy));
      StartupTrace.mark("agents made");
      mcp =
          new McpServer(
              runtime::get,
              new McpSessions(SessionTokens.create(sessionKey(options.environment()))),
              new McpServer.Capabilities(options.watch()),
              limiter);
      StartupTrace.mark("mcp server made");
    } catch (RuntimeException e) {
      RuntimeException reported = StartSteps.alongside(e, starting);
      if (agents != null) {
        agents.close();
      }
      if (limiter != null) {
        limiter.close();
      }
      scripts.close();
      preparing.thenAccept(h -> h.stop(Duration.ZERO));
      throw reported;
    }
    ProjectRuntime started;
    try {
      started = StartSteps.await(starting);
    } catch (RuntimeException e) {
      agents.close();
      limiter.close();
      scripts.close();
      preparing.thenAccept(h -> h.stop(Duration.ZERO));
      throw e;
    }
    scripts.warmUp();
    runtime.set(started);
    try {
      mcpRoute.set(mcp);
      agentRoute.set(agents);
      HttpServer http = StartSteps.await(preparing);
      StartupTrace.mark("http prepared");
      AdapterReadiness adapters = new AdapterReadiness(() -> runtime.get().connectors());
      http.readinessProbe(adapters::unreachable);
      http.open();
      http.markReady();
      StartupTrace.mark("http ready");
      return new Instance(runtime, http, mcp, agents, options, scriptMemory, limiter, console);
    } catch (RuntimeException e) {
      agents.close();
      limiter.close();
      preparing.thenAccept(h -> h.stop(Duration.ZERO));
      started.close();
      throw e;
    }
  }

  private static ProjectRuntime.Settings settings(Options options, ScriptRunner scripts) {
    return new ProjectRuntime.Settings(
        options.environment(),
        options.projectDirectory(),
        options.connectors(),
        scripts,
        ResultCache.DEFAULT_MAX_BYTES,
        options.audit());
  }

  /**
   * Serves {@code next} from now on: adapters that changed are reopened and unchanged ones kept,
   * caches of changed tools flushed, sessions kept, and clients notified. Agent routes follow at
   * once (a task already running finishes on its old definition). Calls in flight finish on the old
   * model; connectors it no longer needs close once those calls had time to end.
   *
   * @param changedFiles project-relative paths that changed (for resources/updated)
   * @throws dev.svc.runtime.StartupException when the new model cannot be served; the old one keeps
   *     serving
   */
  public ModelChanges reload(Model next, Set<String> changedFiles) {
    synchronized (reloading) {
      List<Diagnostic> agentProblems = AgentChecks.check(next, options.environment());
      if (!agentProblems.isEmpty()) {
        reloadRefused(agentProblems);
        throw new StartupException(agentProblems);
      }
      ProjectRuntime previous = runtime.get();
      if (!next.service().audit().equals(previous.model().service().audit())
          || !next.service().metrics().equals(previous.model().service().metrics())) {
        LOG.warn("server.audit and server.metrics changes apply when svc restarts");
      }
      if (!next.service().cacheStore().equals(previous.model().service().cacheStore())) {
        LOG.warn("a tools.cache.store change applies when svc restarts");
      }
      // unchanged scripts keep their runner (and its warm isolates); changed ones, or a changed
      // scripts.fetch, get a new one
      boolean sameScripts =
          previous.model().scripts().equals(next.scripts())
              && previous.model().service().scriptFetch().equals(next.service().scriptFetch());
      ScriptRunner scripts =
          sameScripts
              ? previous.scripts()
              : ScriptSandbox.runner(next, options.environment(), scriptMemory);
      ProjectRuntime fresh;
      try {
        fresh = previous.reload(next, settings(options, scripts));
      } catch (RuntimeException e) {
        if (!sameScripts) {
          scripts.close();
        }
        if (e instanceof StartupException refused) {
          reloadRefused(refused.problems());
        }
        throw e;
      }
      runtime.set(fresh);
      if (!sameScripts && previous.scripts() instanceof PooledScriptRunner retired) {
        retired.retire(); // its idle isolates give their memory back to the shared ceiling
      }
      if (!sameScripts && scripts instanceof PooledScriptRunner pooled) {
        pooled.warmUp();
      }
      ModelChanges changes = ModelChanges.between(previous.model(), next, changedFiles);
      fresh.cache().invalidateTools(changes.tools());
      mcp.publish(changes);
      console.ifPresent(c -> c.reloaded(changes));
      Retirement.later(
          previous,
          previous.retiredBy(fresh),
          sameScripts ? Optional.empty() : Optional.of(previous.scripts()));
      return changes;
    }
  }

  /**
   * Says on the dev console (when served) why a changed project was not swapped in; {@link #reload}
   * says it itself when the model cannot be served.
   */
  public void reloadRefused(List<Diagnostic> problems) {
    console.ifPresent(c -> c.reloadFailed(problems));
  }

  public int port() {
    return http.port();
  }

  /** The port of {@code /metrics} when {@code server.metrics.port} gives it its own. */
  public Optional<Integer> metricsPort() {
    return http.metricsPort();
  }

  /** The base URL clients use, e.g. {@code http://127.0.0.1:8080}. */
  public String baseUrl() {
    String address = options.address();
    String host = address.contains(":") ? "[" + address + "]" : address;
    if (address.equals("0.0.0.0") || address.equals("::")) {
      host = "127.0.0.1";
    }
    return "http://" + host + ":" + port();
  }

  public Model model() {
    return runtime.get().model();
  }

  /**
   * Stops serving without losing an answer: {@code /ready} answers 503 at once, while the server
   * goes on accepting and serving as before for {@code server.limits.drain_delay} (so load
   * balancers stop routing here first); then the listening socket closes and every answer from now
   * on closes its connection (clients go to another instance), server streams end, requests in
   * flight, and agent tasks running without one ({@code returnImmediately}), run on for {@code
   * server.limits.drain_timeout}; those still running then are ended and answered {@code -32603
   * server shutting down} (MCP) or with their cancelled task (A2A); then the connections close and
   * every connector is closed.
   */
  @Override
  public void close() {
    long started = System.nanoTime();
    http.withdraw();
    Duration delay = runtime.get().model().service().limits().drainDelay();
    if (delay.isPositive()) {
      LOG.info(
          "stopping: /ready answers 503; serving on until the drain delay ends",
          "drain_delay_s",
          delay.toSeconds());
      try {
        Thread.sleep(delay);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    http.startDraining();
    mcp.shutdown();
    agents.startDraining();
    console.ifPresent(DevConsole::close);
    Duration drainTimeout = runtime.get().model().service().limits().drainTimeout();
    long drainStarted = System.nanoTime();
    if (!http.awaitIdle(drainTimeout)) {
      LOG.warn(
          "drain limit reached: ending the requests still in flight",
          "requests",
          http.inFlight(),
          "drain_timeout_s",
          drainTimeout.toSeconds());
      mcp.abortInFlight();
    }
    // tasks sent with returnImmediately hold no request: they get what is left of the drain limit
    Duration left = drainTimeout.minusNanos(System.nanoTime() - drainStarted);
    int running = agents.runningTasks();
    if (running > 0 && left.isPositive()) {
      LOG.info("stopping: waiting for the agent tasks still running", "tasks", running);
    }
    int tasksLeft = agents.awaitTasks(left.isNegative() ? Duration.ZERO : left);
    if (tasksLeft > 0) {
      LOG.warn(
          "drain limit reached: canceling the agent tasks still running",
          "tasks",
          tasksLeft,
          "drain_timeout_s",
          drainTimeout.toSeconds());
    }
    agents.close();
    http.stop(ABORT_GRACE);
    limiter.close();
    runtime.get().close();
    gauges.close();
    options.audit().close();
    LOG.info("stopped", "ms", (System.nanoTime() - started) / 1_000_000);
  }

  /** How long calls ended at the drain limit have to write their answers. */
  private static final Duration ABORT_GRACE = Duration.ofSeconds(3);

  /**
   * The key that signs MCP session ids: {@code SVC_SESSION_KEY}, or {@code SVC_SESSION_SECRET}, its
   * earlier name (still read); unset, each process signs with a random key of its own.
   */
  private static Optional<String> sessionKey(Environment environment) {
    Optional<String> key = environment.get("SVC_SESSION_KEY").filter(k -> !k.isEmpty());
    return key.isPresent() ? key : environment.get("SVC_SESSION_SECRET");
  }
}
