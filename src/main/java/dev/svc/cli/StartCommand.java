package dev.svc.cli;

import dev.svc.audit.AuditFile;
import dev.svc.compile.Compilation;
import dev.svc.connector.Connectors;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.log.StartupTrace;
import dev.svc.model.Model;
import dev.svc.model.Service;
import dev.svc.project.Environment;
import dev.svc.project.Project;
import dev.svc.runtime.StartupException;
import dev.svc.server.HttpServer;
import dev.svc.server.ServerStartException;
import dev.svc.telemetry.Telemetry;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code svc start}: validates a source project, opens its adapters and serves it. */
@Command(
    name = "start",
    mixinStandardHelpOptions = true,
    description = {
      "Serve a project from its source files.",
      "Validates, opens every adapter a tool uses (in parallel), then serves MCP at /mcp,",
      "agents at /agent/{name} and GET /heartbeat. Stops cleanly on Ctrl-C or SIGTERM."
    })
final class StartCommand implements Callable<Integer> {
  @Mixin ProjectOptions project;
  @Mixin ServeOptions serve;
  @Mixin LogOptions log;

  @Option(names = "--watch", description = "Recompile and reload when .terse or .ts files change.")
  boolean watch;

  @Option(
      names = "--ui",
      description =
          "Also serve the dev console, a web page at /ui to call tools, render prompts, read"
              + " resources, chat with agents and tail the log (off by default).")
  boolean ui;

  private final CliContext context;

  StartCommand(CliContext context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    OptionalInt usage = serve.checkUsage(log, context);
    if (usage.isPresent()) {
      return usage.getAsInt();
    }
    HttpServer.preloadInBackground();
    Project located = project.locate(context);
    Optional<Compilation.Success> compiled = ProjectCompiler.compiled(located, context);
    if (compiled.isEmpty()) {
      return ExitCodes.FAILED;
    }
    Environment environment =
        Environment.load(context.workingDirectory(), located.directory(), context.environment());
    return serve.run(
        compiled.get().model(),
        environment,
        located.directory(),
        watch ? Optional.of(located) : Optional.<Project>empty(),
        compiled.get().adapterOrigins(),
        log,
        ui,
        context);
  }

  /** Runs an instance until the process is asked to stop. Shared with {@code serve}. */
  static int runUntilStopped(
      Instance.Options configured,
      Model model,
      Optional<Project> watched,
      Map<String, Origin> adapterOrigins,
      CliContext context) {
    Telemetry.configure(
        configured.environment().withPrefix("OTEL_"),
        model.service().name(),
        model.service().version());
    StartupTrace.mark("telemetry configured");
    Instance.Options options;
    try {
      options = withAudit(configured, model);
    } catch (UncheckedIOException e) {
      context.err().println("error: " + e.getMessage());
      context.err().flush();
      return ExitCodes.FAILED;
    }
    StartupTrace.mark("audit configured");
    Instance instance;
    try {
      instance = Instance.launch(model, options);
    } catch (StartupException e) {
      List<Diagnostic> problems = StartProblems.located(e.problems(), adapterOrigins);
      ProjectCompiler.print(problems, context.err());
      context
          .err()
          .println("svc: nothing is served (" + Diagnostics.summary(problems).split(",")[0] + ")");
      context.err().flush();
      return ExitCodes.FAILED;
    } catch (ServerStartException e) {
      context.err().println("error: " + e.getMessage());
      context.err().flush();
      return ExitCodes.FAILED;
    }
    // no lambdas from here on: this runs beside the first requests, and a lambda the training run
    // never made would have its class generated now (docs/cli.md, "Start-up time")
    // the port is open: from now on a signal drains (before, one that came while the banner was
    // printed or the watcher registered the tree ended the process at once with 143)
    CountDownLatch stopped = new CountDownLatch(1);
    Shutdown shutdown = new Shutdown(instance, stopped);
    Runtime.getRuntime().addShutdownHook(new Thread(shutdown, "svc-shutdown"));
    for (String line : banner(model, instance, options)) {
      context.out().println(line);
    }
    context.out().flush();
    OldGenerationCap.watchInBackground();
    if (watched.isPresent()) {
      Reloader reloader = new Reloader(watched.get(), options.environment(), instance, context);
      if (shutdown.watching(reloader)) {
        context.out().println("svc: watching " + watched.get().directory() + " for changes");
      }
    }
    context.out().flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return ExitCodes.OK;
  }

  /** On SIGTERM or SIGINT: stop watching, drain and close the instance, end the process. */
  private static final class Shutdown implements Runnable {
    private final Instance instance;
    private final CountDownLatch stopped;
    private Reloader reloader;
    private boolean stopping;

    Shutdown(Instance instance, CountDownLatch stopped) {
      this.instance = instance;
      this.stopped = stopped;
    }

    /** Closes {@code reloader} with the instance; false (and closed) when stopping already. */
    synchronized boolean watching(Reloader reloader) {
      if (stopping) {
        reloader.close();
        return false;
      }
      this.reloader = reloader;
      return true;
    }

    private synchronized void stopWatching() {
      stopping = true;
      if (reloader != null) {
        reloader.close();
      }
    }

    @Override
    public void run() {
      stopWatching();
      instance.close();
      Telemetry.shutdown();
      stopped.countDown();
      Runtime.getRuntime().halt(ExitCodes.OK);
    }
  }

  /**
   * What {@code start} and {@code serve} print once serving: where, what, and the routes besides
   * {@code /mcp}. The start-up training run makes it too, so its classes are in the AOT cache.
   */
  static List<String> banner(Model model, Instance instance, Instance.Options options) {
    List<String> lines = new ArrayList<>();
    lines.add(
        "svc: serving "
            + model.service().name()
            + " ("
            + ProjectCompiler.contents(model)
            + ") on "
            + instance.baseUrl()
            + "/mcp");
    String address = options.address();
    if (address.equals("0.0.0.0") || address.equals("::")) {
      // the URL above is this machine's own; say that others reach it too
      lines.add(
          "svc: listening on every interface ("
              + (address.contains(":") ? "[" + address + "]" : address)
              + ":"
              + instance.port()
              + "): other machines use this one's address or name");
    }
    if (!model.agents().isEmpty()) {
      lines.add(
          "svc: agents at "
              + String.join(
                  ", ",
                  model.agents().stream()
                      .map(a -> instance.baseUrl() + "/agent/" + a.name())
                      .toList()));
    }
    if (model.service().metrics().enabled()) {
      String base = instance.baseUrl();
      if (instance.metricsPort().isPresent()) {
        base = base.substring(0, base.lastIndexOf(':') + 1) + instance.metricsPort().get();
      }
      lines.add("svc: metrics at " + base + "/metrics");
    }
    if (model.service().auth().isPresent()) {
      lines.add(
          "svc: OAuth access tokens required on /mcp and /agent/* (metadata at "
              + instance.baseUrl()
              + "/.well-known/oauth-protected-resource/mcp)");
    }
    if (options.console()) {
      lines.add(
          "svc: dev console at "
              + instance.baseUrl()
              + "/ui/"
              + (model.service().auth().isPresent()
                  ? " (it asks for an access token, as /mcp does)"
                  : ""));
    }
    if (options.audit() instanceof AuditFile file) {
      lines.add("svc: audit trail in " + file.path());
    }
    return lines;
  }

  /** The options with the audit trail {@code server.audit} asks for, opened. */
  private static Instance.Options withAudit(Instance.Options options, Model model) {
    Service.Audit audit = model.service().audit();
    if (!audit.enabled()) {
      return options;
    }
    Path path = options.projectDirectory().resolve(audit.path().orElse(Service.Audit.DEFAULT_PATH));
    return new Instance.Options(
        options.environment(),
        options.projectDirectory(),
        options.address(),
        options.port(),
        options.watch(),
        options.connectors(),
        options.agents(),
        AuditFile.open(path));
  }

  static Instance.Options options(
      Model model,
      Environment environment,
      Path directory,
      String address,
      Integer port,
      boolean watch) {
    int resolvedPort =
        port != null
            ? port
            : model
                .service()
                .port()
                .orElseGet(() -> environment.get("PORT").map(Integer::parseInt).orElse(8080));
    return new Instance.Options(
        environment, directory, address, resolvedPort, watch, Connectors::open);
  }
}
