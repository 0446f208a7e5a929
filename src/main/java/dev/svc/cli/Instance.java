package dev.svc.cli;

import dev.svc.connector.Connector;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import dev.svc.log.Log;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.protocol.HttpReply;
import dev.svc.protocol.mcp.McpServer;
import dev.svc.protocol.mcp.McpSessions;
import dev.svc.protocol.mcp.SessionTokens;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.runtime.StartupException;
import dev.svc.script.PooledScriptRunner;
import dev.svc.script.ScriptRunner;
import dev.svc.script.V8Engine;
import dev.svc.server.HttpServer;
import dev.svc.server.ServerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
  private final String address;

  private Instance(AtomicReference<ProjectRuntime> runtime, HttpServer http, String address) {
    this.runtime = runtime;
    this.http = http;
    this.address = address;
  }

  /** Everything launching needs besides the model. */
  public record Options(
      Environment environment,
      Path projectDirectory,
      String address,
      int port,
      boolean watch,
      Function<ResolvedAdapter, Connector> connectors) {}

  /**
   * Opens the project's adapters, then starts listening.
   *
   * @throws dev.svc.runtime.StartupException when an adapter or variable is missing
   * @throws dev.svc.server.ServerStartException when the port cannot be bound
   */
  public static Instance launch(Model model, Options options) {
    ProjectRuntime started =
        ProjectRuntime.start(
            model,
            new ProjectRuntime.Settings(
                options.environment(),
                options.projectDirectory(),
                options.connectors(),
                scripts(model, options.environment()),
                dev.svc.cache.ResultCache.DEFAULT_MAX_BYTES));
    AtomicReference<ProjectRuntime> runtime = new AtomicReference<>(started);
    try {
      McpServer mcp =
          new McpServer(
              runtime::get,
              new McpSessions(
                  SessionTokens.create(options.environment().get("SVC_SESSION_SECRET"))),
              new McpServer.Capabilities(options.watch()));
      ServerSettings settings =
          new ServerSettings(
              options.address(),
              options.port(),
              model.service().allowedHosts(),
              model.service().allowedOrigins(),
              ServerSettings.DEFAULT_MAX_BODY_BYTES);
      HttpServer http = HttpServer.start(settings, mcp::handle, call -> notFound(call.path()));
      http.markReady();
      return new Instance(runtime, http, options.address());
    } catch (RuntimeException e) {
      started.close();
      throw e;
    }
  }

  /**
   * The script runner: V8 isolates made on demand (the first one warmed up in the background, so
   * start-up does not wait for V8 and a project without scripts never loads it). {@code
   * SVC_SCRIPT_HEAP_MB} caps each isolate's heap, {@code SVC_SCRIPT_ISOLATES} their number.
   */
  static ScriptRunner scripts(Model model, Environment environment) {
    PooledScriptRunner.Settings defaults = PooledScriptRunner.Settings.defaults();
    int heapMb = positive(environment, "SVC_SCRIPT_HEAP_MB", V8Engine.DEFAULT_HEAP_MB, 8);
    int isolates = positive(environment, "SVC_SCRIPT_ISOLATES", defaults.maxIsolates(), 1);
    return new PooledScriptRunner(
        new V8Engine(heapMb),
        model.scripts(),
        new PooledScriptRunner.Settings(isolates, defaults.idleTimeout(), defaults.warmUp()));
  }

  private static int positive(Environment environment, String name, int fallback, int minimum) {
    Optional<String> value = environment.get(name);
    if (value.isEmpty() || value.get().isBlank()) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value.get().strip());
      if (parsed >= minimum) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new StartupException(
        List.of(
            Diagnostic.error(
                    "invalid-env",
                    Origin.ofFile("environment " + name),
                    name + " must be a whole number of at least " + minimum)
                .withHint("unset it to use the default, " + fallback)));
  }

  private static HttpReply notFound(String path) {
    byte[] body =
        ("{\"error\":\"no agent is served at " + path + "\"}")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    return new HttpReply.Body(404, Map.of(), "application/json", body);
  }

  public int port() {
    return http.port();
  }

  /** The base URL clients use, e.g. {@code http://127.0.0.1:8080}. */
  public String baseUrl() {
    String host = address.contains(":") ? "[" + address + "]" : address;
    if (address.equals("0.0.0.0") || address.equals("::")) {
      host = "127.0.0.1";
    }
    return "http://" + host + ":" + port();
  }

  public Model model() {
    return runtime.get().model();
  }

  /** Stops accepting, lets calls in flight finish (bounded), then closes every connector. */
  @Override
  public void close() {
    long started = System.nanoTime();
    http.stop(Duration.ofSeconds(10));
    runtime.get().close();
    LOG.info("stopped", "ms", (System.nanoTime() - started) / 1_000_000);
  }
}
