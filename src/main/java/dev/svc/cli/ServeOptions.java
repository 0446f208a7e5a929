package dev.svc.cli;

import dev.svc.model.Model;
import dev.svc.project.Environment;
import java.nio.file.Path;
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

  int run(
      Model model,
      Environment environment,
      Path directory,
      java.util.Optional<dev.svc.project.Project> watched,
      LogOptions log,
      CliContext context) {
    log.apply(model.service().logLevel(), context)
        .ifPresent(path -> context.out().println("svc: logging to " + path));
    dev.svc.log.StartupTrace.mark("log configured");
    if (port != null && (port < 0 || port > 65535)) {
      context.err().println("error: --port must be 0 to 65535");
      return ExitCodes.USAGE;
    }
    return StartCommand.runUntilStopped(
        StartCommand.options(model, environment, directory, address, port, watched.isPresent()),
        model,
        watched,
        context);
  }
}
