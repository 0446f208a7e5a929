package dev.svc.cli;

import dev.svc.diagnostic.Origin;
import dev.svc.log.StartupTrace;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.project.Project;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import picocli.CommandLine.Option;

/** The listening flags of {@code start} and {@code serve}. */
final class ServeOptions {
  @Option(
      names = {"-p", "--port"},
      paramLabel = "PORT",
      description = "Port to listen on: this, then server.port, then env PORT, then 8080.")
  Integer port;

  @Option(
      names = "--address",
      paramLabel = "ADDRESS",
      defaultValue = "127.0.0.1",
      description = "Address to listen on (default 127.0.0.1; 0.0.0.0 for every interface).")
  String address;

  /**
   * Checks the values of the listening and logging flags, which picocli only parses. Runs before
   * anything else, so a bad value is reported as a bad command line whatever the project holds.
   *
   * @return {@link ExitCodes#USAGE} with the problem printed, or empty when the values are good
   */
  OptionalInt checkUsage(LogOptions log, CliContext context) {
    // an empty --address (`--address "$HOST"` with HOST unset) bound to localhost and announced
    // http://:8080/mcp
    Optional<String> problem =
        port != null && (port < 0 || port > 65535)
            ? Optional.of("--port must be 0 to 65535, got " + port)
            : address != null && address.isBlank()
                ? Optional.of(
                    "--address must not be empty (127.0.0.1 is the default, 0.0.0.0 every"
                        + " interface)")
                : log.problem();
    if (problem.isEmpty()) {
      return OptionalInt.empty();
    }
    context.err().println("error: " + problem.get());
    context.err().flush();
    return OptionalInt.of(ExitCodes.USAGE);
  }

  int run(
      Model model,
      Environment environment,
      Path directory,
      Optional<Project> watched,
      Map<String, Origin> adapterOrigins,
      LogOptions log,
      boolean console,
      CliContext context) {
    // an if, not ifPresent with a lambda: a lambda the training run never made would have its class
    // generated at every start (docs/cli.md, "Start-up time")
    Optional<Path> logFile = log.apply(model.service().logLevel(), context);
    if (logFile.isPresent()) {
      context.out().println("svc: logging to " + logFile.get());
    }
    StartupTrace.mark("log configured");
    return StartCommand.runUntilStopped(
        StartCommand.options(model, environment, directory, address, port, watched.isPresent())
            .withConsole(console),
        model,
        watched,
        adapterOrigins,
        context);
  }
}
