package dev.svc.cli;

import dev.svc.compile.Artifacts;
import dev.svc.model.Adapter;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Model;
import dev.svc.model.ModelCodec;
import dev.svc.project.Project;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code svc build}: validates and compiles a project into a self-contained directory that {@code
 * svc serve} boots from — launcher, runtime jars, {@code model.bin} (no secrets: env placeholders
 * stay placeholders), the script bundles, and a start-up (AOT) cache.
 */
@Command(
    name = "build",
    mixinStandardHelpOptions = true,
    description = {
      "Compile a project into a deployable directory.",
      "Writes the launcher `svc`, the runtime jars under lib/, model.bin, build/tools/<tool>/*.js",
      "(and build/vendor.js when scripts import npm packages). Serve it with: cd <dir> && ./svc serve"
    })
final class BuildCommand implements Callable<Integer> {
  @Mixin ProjectOptions project;

  @Option(
      names = "-o",
      paramLabel = "DIR",
      description = "Output directory (default: build.out of .svc, else dist/ beside .svc).")
  String output;

  @Option(names = "--clean-dir", description = "Remove the output directory before building.")
  boolean cleanDir;

  @Option(names = "--no-aot", description = "Skip the start-up cache (faster build, slower start).")
  boolean noAot;

  private final CliContext context;

  BuildCommand(CliContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws IOException {
    long started = System.nanoTime();
    Project located = project.locate(context);
    progress("compiling " + located.directory());
    Optional<Model> compiled = ProjectCompiler.compile(located, context);
    if (compiled.isEmpty()) {
      return ExitCodes.FAILED;
    }
    Model model = Artifacts.embedFiles(compiled.get(), located.directory());
    Path out =
        output != null
            ? context.workingDirectory().resolve(output).normalize()
            : located.directory().resolve(model.service().buildOut().orElse("dist")).normalize();
    if (out.equals(located.directory()) || located.directory().startsWith(out)) {
      context
          .err()
          .println("error: the output directory " + out + " would hold the project itself");
      return ExitCodes.FAILED;
    }
    if (cleanDir || model.service().buildCleanDir()) {
      progress("removing " + out);
      ArtifactLayout.deleteTree(out);
    }
    ArtifactLayout layout = new ArtifactLayout(out);
    List<String> written = new ArrayList<>();
    written.add(layout.writeModel(ModelCodec.encode(model)));
    written.addAll(layout.writeBundles(model));
    progress("copying the runtime");
    written.addAll(layout.writeRuntime(RuntimeJars.locate()));
    if (usesLocalSqlite(model)) {
      layout.extractSqliteNative().ifPresent(written::add);
    }
    written.addAll(layout.copySeeds(model, located.directory()));
    written.add(layout.writeLauncher());
    if (!noAot) {
      progress("training the start-up cache (a short run of the artifact; about 10 s)");
      AotTraining.run(out, context).ifPresent(written::add);
    }
    context.out().println();
    context
        .out()
        .println(
            "svc: built "
                + model.service().name()
                + " ("
                + ProjectCompiler.contents(model)
                + ") into "
                + out);
    for (String file : written) {
      context.out().println("  " + file);
    }
    context.out().println();
    context.out().println("Serve it with:  cd " + shellPath(out) + " && ./svc serve");
    context
        .out()
        .println("(set the environment variables it needs, or put them in a .env file there;");
    context
        .out()
        .println(
            " the build holds no secrets)  [" + (System.nanoTime() - started) / 1_000_000 + " ms]");
    context.out().flush();
    return ExitCodes.OK;
  }

  private static boolean usesLocalSqlite(Model model) {
    for (Adapter adapter : model.usedAdapters()) {
      if (adapter.connector() == ConnectorKind.SQLITE
          && !adapter.connectionString().template().contains("://")) {
        return true;
      }
    }
    return false;
  }

  private void progress(String step) {
    context.err().println("svc: " + step + " ...");
    context.err().flush();
  }

  private String shellPath(Path path) {
    Path relative =
        path.startsWith(context.workingDirectory())
            ? context.workingDirectory().relativize(path)
            : path;
    String text = relative.toString().isEmpty() ? "." : relative.toString();
    return text.matches("[A-Za-z0-9_./-]+") ? text : "'" + text.replace("'", "'\\''") + "'";
  }

  /** Files under {@code dir}, for messages. */
  static List<String> list(Path dir) {
    try (var files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString())
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
