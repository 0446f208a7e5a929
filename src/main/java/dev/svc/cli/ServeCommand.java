package dev.svc.cli;

import dev.svc.log.StartupTrace;
import dev.svc.model.ArtifactException;
import dev.svc.model.Model;
import dev.svc.model.ModelCodec;
import dev.svc.project.Environment;
import dev.svc.server.HttpServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc serve}: boots from a built artifact, with no source files and no re-compiling. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve a built artifact (model.bin from `svc build`).",
      "Reads no source files: the model, scripts and resource contents are in model.bin.",
      "Loads .env from the working directory; same routes and flags as `svc start`."
    })
final class ServeCommand implements Callable<Integer> {
  static final String MODEL_FILE = "model.bin";

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "MANIFEST",
      description =
          "model.bin, or the directory holding it (default: model.bin in the working directory).")
  String manifest;

  @Mixin ServeOptions serve;
  @Mixin LogOptions log;

  @Option(names = "--train", hidden = true, description = "Start-up training run of svc build.")
  boolean train;

  private final CliContext context;

  ServeCommand(CliContext context) {
    this.context = context;
  }

  /**
   * The most bytes of {@code model.bin} read with a heap of {@code heap} bytes: a third of it, as
   * decoding holds the file, a copy of its body and the model made of them at once. A larger file
   * (a damaged one, or something else named {@code model.bin}) ended {@code svc serve} with an
   * {@code OutOfMemoryError}: its stack trace for 3 GiB ({@code Required array size too large}),
   * the JVM terminating for 700 MiB with the launcher's 512 MiB heap.
   */
  static long maxModelBytes(long heap) {
    return heap / 3;
  }

  @Override
  public Integer call() {
    OptionalInt usage = serve.checkUsage(log, context);
    if (usage.isPresent()) {
      return usage.getAsInt();
    }
    HttpServer.preloadInBackground();
    Path file =
        context.workingDirectory().resolve(manifest == null ? MODEL_FILE : manifest).normalize();
    if (Files.isDirectory(file)) {
      file = file.resolve(MODEL_FILE);
    }
    if (!Files.isRegularFile(file)) {
      context
          .err()
          .println("error: no " + MODEL_FILE + " at " + file + " (create one with `svc build`)");
      return ExitCodes.FAILED;
    }
    Model model;
    try {
      long size = Files.size(file);
      long heap = Runtime.getRuntime().maxMemory();
      if (size > maxModelBytes(heap)) {
        context
            .err()
            .println(
                "error: "
                    + file
                    + " holds "
                    + size / (1024 * 1024)
                    + " MiB, more than svc serve reads with a heap of "
                    + heap / (1024 * 1024)
                    + " MiB (a third of it): if it is a model.bin of `svc build`, give the JVM"
                    + " more heap (SVC_JAVA_OPTS=-Xmx…), else rebuild it");
        return ExitCodes.FAILED;
      }
      model = ModelCodec.decode(Files.readAllBytes(file));
    } catch (ArtifactException e) {
      context.err().println("error: " + file + ": " + e.getMessage());
      return ExitCodes.FAILED;
    } catch (IOException e) {
      context.err().println("error: cannot read " + file + ": " + e.getMessage());
      return ExitCodes.FAILED;
    }
    StartupTrace.mark("model decoded");
    Path directory = file.toAbsolutePath().getParent();
    Environment environment =
        Environment.load(
            context.workingDirectory(), context.workingDirectory(), context.environment());
    StartupTrace.mark("environment loaded");
    if (train) {
      return StartupTraining.run(model, environment.withFallback(""), directory, context);
    }
    return serve.run(
        model, environment, directory, Optional.empty(), Map.of(), log, false, context);
  }
}
