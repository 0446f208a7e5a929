package dev.svc.cli;

import dev.svc.compile.Artifacts;
import dev.svc.compile.Compilation;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.model.Adapter;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Model;
import dev.svc.model.ModelCodec;
import dev.svc.project.Project;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
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
  /** The warning of a password, token or key written in the project's files, not taken from env. */
  private static final String LITERAL_SECRET = "literal-secret";

  private static final String SECRETS_WRITTEN =
      " the build holds the secrets written in the project's files: see the literal-secret"
          + " warnings above)";

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

  @Option(
      names = "--image",
      paramLabel = "FILE",
      description =
          "Write an OCI image tarball (no Docker daemon needed) instead of a directory: a linked"
              + " Java runtime, non-root, serving on 0.0.0.0.")
  String image;

  private final CliContext context;

  BuildCommand(CliContext context) {
    this.context = context;
  }

  /**
   * A definition file ({@code .terse}) in {@code out}, whose sub-folders are walked without
   * following links; empty when there is none. An output directory holding one is a folder of the
   * project's sources: {@code build.out: app} with {@code clean_dir: true} removed every tool
   * before writing the build there.
   */
  private static Optional<Path> definitionIn(Path out) throws IOException {
    if (!Files.isDirectory(out)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.walk(out)) {
      return files
          .filter(file -> file.getFileName().toString().endsWith(".terse"))
          .filter(Files::isRegularFile)
          .sorted()
          .findFirst();
    }
  }

  /**
   * {@code path} with its symbolic links followed, when it exists (else as it is): {@code -o
   * link-to-the-project} compared unequal to the project's directory, and the build wrote {@code
   * model.bin}, {@code lib/} and the launcher {@code svc} (over a file of that name) among the
   * project's sources.
   */
  private static Path real(Path path) throws IOException {
    return Files.exists(path) ? path.toRealPath() : path.toAbsolutePath().normalize();
  }

  /**
   * Whether cleaning may remove {@code out}: it does not exist, is empty, or holds an earlier build
   * (its {@code model.bin}). {@code build.out} may lead anywhere ({@code ../artifacts/shop}), so a
   * root file with {@code out: /home/me/Documents} and {@code clean_dir: true}, or {@code -o ~/work
   * --clean-dir}, removed that folder and everything in it before writing the build there.
   */
  private static boolean removable(Path out) throws IOException {
    if (!Files.isDirectory(out, LinkOption.NOFOLLOW_LINKS)) {
      return true;
    }
    if (Files.isRegularFile(out.resolve(ServeCommand.MODEL_FILE))) {
      return true;
    }
    try (Stream<Path> entries = Files.list(out)) {
      return entries.findAny().isEmpty();
    }
  }

  @Override
  public Integer call() throws IOException {
    long started = System.nanoTime();
    Project located = project.locate(context);
    progress("compiling " + located.directory());
    Optional<Compilation.Success> compilation = ProjectCompiler.compile(located, context);
    if (compilation.isEmpty()) {
      return ExitCodes.FAILED;
    }
    Optional<Model> compiled = compilation.map(Compilation.Success::model);
    // the secrets the project's files hold themselves are in the build too (warned above)
    boolean secretsWritten =
        compilation.get().diagnostics().stream().anyMatch(d -> d.code().equals(LITERAL_SECRET));
    List<Diagnostic> unbuildable = ArtifactLayout.seedsOutsideTheProject(compiled.get());
    if (!unbuildable.isEmpty()) {
      ProjectCompiler.print(unbuildable, context.err());
      return ExitCodes.FAILED;
    }
    // the build's output folders, the default and the one asked for, hold earlier builds
    List<Path> outputs =
        List.of(
            located
                .directory()
                .resolve(compiled.get().service().buildOut().orElse("dist"))
                .toAbsolutePath()
                .normalize(),
            output != null
                ? context.workingDirectory().resolve(output).toAbsolutePath().normalize()
                : located.directory().resolve("dist").toAbsolutePath().normalize());
    Model model = Artifacts.embedFiles(compiled.get(), located.directory(), outputs);
    if (image != null) {
      return buildImage(model, located, started, secretsWritten);
    }
    Path out =
        output != null
            ? context.workingDirectory().resolve(output).normalize()
            : located.directory().resolve(model.service().buildOut().orElse("dist")).normalize();
    Path realOut = real(out);
    Path realProject = real(located.directory());
    if (realOut.equals(realProject) || realProject.startsWith(realOut)) {
      context
          .err()
          .println("error: the output directory " + out + " would hold the project itself");
      return ExitCodes.FAILED;
    }
    Optional<Path> definition = definitionIn(realOut);
    if (definition.isPresent()) {
      context
          .err()
          .println(
              "error: the output directory "
                  + out
                  + " holds the project's "
                  + (definition.get().startsWith(realProject)
                      ? realProject.relativize(definition.get()).toString().replace('\\', '/')
                      : located.relative(definition.get()))
                  + "; choose an output directory (build.out or -o) outside the definitions");
      return ExitCodes.FAILED;
    }
    if ((cleanDir || model.service().buildCleanDir()) && !removable(out)) {
      context
          .err()
          .println(
              "error: the output directory "
                  + out
                  + " holds files but no earlier build (no "
                  + ServeCommand.MODEL_FILE
                  + "); --clean-dir and build.clean_dir remove only an earlier build: empty it"
                  + " yourself, or choose another output directory");
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
    written.addAll(layout.writeRuntime(RuntimeJars.locate(), model));
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
            (secretsWritten ? SECRETS_WRITTEN : " the build holds no secrets)")
                + "  ["
                + (System.nanoTime() - started) / 1_000_000
                + " ms]");
    context.out().flush();
    return ExitCodes.OK;
  }

  private int buildImage(Model model, Project located, long started, boolean secretsWritten)
      throws IOException {
    if (output != null || cleanDir) {
      context
          .err()
          .println("error: --image writes only the image file; leave out -o and --clean-dir");
      return ExitCodes.USAGE;
    }
    Path target = context.workingDirectory().resolve(image).normalize();
    if (target.startsWith(located.directory().resolve("app"))) {
      context
          .err()
          .println("error: the image file " + target + " would be inside the project's app/");
      return ExitCodes.FAILED;
    }
    Optional<String> refused = imageTargetProblem(target);
    if (refused.isPresent()) {
      context.err().println("error: " + refused.get());
      return ExitCodes.FAILED;
    }
    Path staging = Files.createTempDirectory("svc-image");
    try {
      Path app = staging.resolve(ContainerImage.APP);
      ArtifactLayout layout = new ArtifactLayout(app);
      layout.writeModel(ModelCodec.encode(model));
      layout.writeBundles(model);
      layout.writeRuntime(RuntimeJars.locate(), model);
      if (usesLocalSqlite(model)) {
        layout.extractSqliteNative();
      }
      layout.copySeeds(model, located.directory());
      Path java = LinkedRuntime.locate(context);
      // the start-up cache records the times of the jars; the image's files carry this one
      ContainerImage.normaliseTimes(app);
      if (!noAot) {
        progress("training the start-up cache with the image's runtime (about 10 s)");
        AotTraining.run(java.resolve("bin/java"), app, context);
      }
      progress("writing the image layers");
      Path layers = Files.createDirectories(staging.resolve("layers"));
      String digest = ContainerImage.write(app, java, model.service(), target, layers);
      context.out().println();
      context
          .out()
          .println(
              "svc: built image "
                  + ContainerImage.reference(model.service())
                  + " ("
                  + ProjectCompiler.contents(model)
                  + ") into "
                  + shellPath(target)
                  + " ("
                  + Files.size(target) / (1024 * 1024)
                  + " MB, OCI layout)");
      context.out().println("  manifest " + digest);
      context.out().println();
      context.out().println("Load it with:  podman load -i " + shellPath(target));
      context
          .out()
          .println(
              "           or:  skopeo copy oci-archive:"
                  + shellPath(target)
                  + " docker://REGISTRY/"
                  + ContainerImage.reference(model.service()));
      context
          .out()
          .println(
              "Run it read-only:  podman run --read-only --tmpfs /tmp -p 8080:8080 "
                  + ContainerImage.reference(model.service()));
      context
          .out()
          .println(
              (secretsWritten
                      ? "(the image holds the secrets written in the project's files, see the"
                          + " literal-secret warnings above; pass the others at run time)  ["
                      : "(the image holds no secrets: pass environment variables at run time)  [")
                  + (System.nanoTime() - started) / 1_000_000
                  + " ms]");
      context.out().flush();
      return ExitCodes.OK;
    } finally {
      ArtifactLayout.deleteTree(staging);
    }
  }

  /**
   * Why {@code --image} must not write {@code target}, or empty when it may: a folder, or an
   * existing file that is not an image written by {@code svc build --image} (a tar whose first
   * entry is {@code oci-layout}). The image replaced whatever the path held: {@code --image .svc}
   * the project's root file, {@code --image seed.sql} its seed, an empty folder the folder.
   */
  private static Optional<String> imageTargetProblem(Path target) throws IOException {
    if (Files.isDirectory(target)) {
      return Optional.of(
          "the image file "
              + target
              + " is a folder; name a file, e.g. "
              + target.resolve("image.tar"));
    }
    if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    byte[] name = new byte[OCI_LAYOUT_ENTRY.length + 1];
    int read = 0;
    if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
      try (InputStream in = Files.newInputStream(target)) {
        read = in.readNBytes(name, 0, name.length);
      }
    }
    boolean earlierImage =
        read == name.length
            && Arrays.equals(Arrays.copyOf(name, OCI_LAYOUT_ENTRY.length), OCI_LAYOUT_ENTRY)
            && name[OCI_LAYOUT_ENTRY.length] == 0;
    return earlierImage
        ? Optional.empty()
        : Optional.of(
            target
                + " exists and is not an image of `svc build --image`, which replaces only its own"
                + " images; remove the file or name another one");
  }

  /** The name of the first entry of an image tarball, as {@link OciImage} writes it. */
  private static final byte[] OCI_LAYOUT_ENTRY = "oci-layout".getBytes(StandardCharsets.US_ASCII);

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
