package dev.svc.cli;

import dev.svc.SvcVersion;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.model.Adapter;
import dev.svc.model.ConnectorKind;
import dev.svc.model.EnvString;
import dev.svc.model.Execution;
import dev.svc.model.Model;
import dev.svc.model.ScriptBundle;
import dev.svc.model.ScriptRef;
import dev.svc.model.Tool;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.sqlite.JDBC;

/**
 * Writes the files of a built artifact (docs/decisions.md "CLI": {@code svc}, {@code lib/}, {@code
 * model.bin}, {@code build/tools/<tool>/*.js}, {@code build/vendor.js}). Every method returns the
 * paths it wrote, relative to the output directory.
 */
final class ArtifactLayout {
  private final Path out;

  ArtifactLayout(Path out) {
    this.out = out;
  }

  String writeModel(byte[] model) {
    write(out.resolve(ServeCommand.MODEL_FILE), model);
    return ServeCommand.MODEL_FILE;
  }

  /**
   * The script bundles, readable, one per tool and role (the runtime reads them from model.bin).
   */
  List<String> writeBundles(Model model) {
    List<String> written = new ArrayList<>();
    for (Tool tool : model.tools()) {
      if (tool.execution() instanceof Execution.Handler handler) {
        written.addAll(
            bundle(model, handler.script(), "build/tools/" + tool.name() + "/handler.js"));
      }
      tool.inputMapper()
          .ifPresent(
              s -> written.addAll(bundle(model, s, "build/tools/" + tool.name() + "/input.js")));
      tool.outputMapper()
          .ifPresent(
              s -> written.addAll(bundle(model, s, "build/tools/" + tool.name() + "/output.js")));
      tool.auth()
          .flatMap(a -> a.script())
          .ifPresent(s ->
              written.addAll(
                  bundle(model, s, "build/plugins/" + tool.auth().get().plugin() + ".js")));
    }
    model
        .scripts()
        .vendor()
        .ifPresent(vendor -> {
          write(out.resolve("build/vendor.js"), vendor.getBytes(StandardCharsets.UTF_8));
          written.add("build/vendor.js");
        });
    return written.stream().distinct().toList();
  }

  private List<String> bundle(Model model, ScriptRef script, String target) {
    Optional<ScriptBundle> bundle = model.scripts().bundle(script.path());
    if (bundle.isEmpty()) {
      return List.of();
    }
    write(out.resolve(target), bundle.get().code().getBytes(StandardCharsets.UTF_8));
    return List.of(target);
  }

  /**
   * {@code lib/svc.jar} and the dependencies the project needs ({@link RuntimeLibraries}), keeping
   * the relative layout its manifest names: not the connectors, V8 or Google's sign-in library when
   * the model does not use them, nor what only development uses (the TypeScript compiler, esbuild
   * and the dev console's npm packages). A Class-Path entry whose jar is absent is skipped by the
   * JVM.
   */
  List<String> writeRuntime(RuntimeJars jars, Model model) {
    copy(jars.mainJar(), out.resolve("lib/svc.jar"));
    Set<RuntimeLibraries.Part> parts = RuntimeLibraries.needed(model);
    List<String> copied =
        jars.classPath().stream().filter(entry -> RuntimeLibraries.ships(entry, parts)).toList();
    for (String entry : copied) {
      copy(jars.dependency(entry), out.resolve("lib").resolve(entry));
    }
    StringBuilder named = new StringBuilder();
    for (RuntimeLibraries.Part part : parts) {
      named.append(named.isEmpty() ? "" : ", ").append(part.label());
    }
    return List.of(
        "lib/svc.jar",
        "lib/" + (copied.isEmpty() ? "" : "lib/*.jar (" + copied.size() + " jars: " + named + ")"));
  }

  /**
   * sqlite-jdbc's native library for this platform, extracted once here instead of into a temporary
   * directory at every start (about 190 ms of start-up).
   */
  Optional<String> extractSqliteNative() {
    String os =
        System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux") ? "Linux" : null;
    String arch =
        switch (System.getProperty("os.arch")) {
          case "amd64", "x86_64" -> "x86_64";
          case "aarch64", "arm64" -> "aarch64";
          default -> null;
        };
    if (os == null || arch == null) {
      return Optional.empty();
    }
    String entryName = "org/sqlite/native/" + os + "/" + arch + "/libsqlitejdbc.so";
    try (InputStream in = JDBC.class.getClassLoader().getResourceAsStream(entryName)) {
      if (in == null) {
        return Optional.empty();
      }
      write(out.resolve("lib/native/libsqlitejdbc.so"), in.readAllBytes());
      return Optional.of("lib/native/libsqlitejdbc.so");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * An error for every SQLite {@code seed} whose relative path leads out of the project ({@code
   * ../shared/seed.sql}): {@link #copySeeds} copies seeds at their path from the project directory,
   * and such a path has no place in the artifact. It was skipped without a word, and {@code svc
   * serve} then looked for the script beside the artifact's folder: it failed with {@code
   * adapter-unavailable}, or ran whatever file happened to be there. An absolute path stays
   * allowed: it names the same file on the machine that serves.
   */
  static List<Diagnostic> seedsOutsideTheProject(Model model) {
    List<Diagnostic> errors = new ArrayList<>();
    for (Adapter adapter : model.adapters()) {
      EnvString seed = adapter.options().get("seed");
      if (adapter.connector() != ConnectorKind.SQLITE
          || seed == null
          || seed.template().contains("{{")) {
        continue;
      }
      Path path = Path.of(seed.template());
      if (!path.isAbsolute() && path.normalize().startsWith("..")) {
        errors.add(
            Diagnostic.error(
                    "seed-outside-project",
                    seed.origin(),
                    "the seed script `"
                        + seed.template()
                        + "` is outside the project directory, so `svc build` cannot copy it"
                        + " into the artifact")
                .withHint("move the script into the project, e.g. beside .svc"));
      }
    }
    return errors;
  }

  /** Seed scripts of SQLite adapters, at the same relative paths (the artifact is their base). */
  List<String> copySeeds(Model model, Path projectDirectory) {
    List<String> written = new ArrayList<>();
    for (Adapter adapter : model.adapters()) {
      if (adapter.connector() != ConnectorKind.SQLITE || !adapter.options().containsKey("seed")) {
        continue;
      }
      String seed = adapter.options().get("seed").template();
      Path target = out.resolve(seed).normalize();
      if (seed.contains("{{") || !target.startsWith(out)) {
        continue;
      }
      copy(projectDirectory.resolve(seed).normalize(), target);
      written.add(out.relativize(target).toString());
    }
    return written;
  }

  String writeLauncher() {
    String script;
    try (InputStream in = ArtifactLayout.class.getResourceAsStream("/dev/svc/cli/build/svc.sh")) {
      script =
          new String(in.readAllBytes(), StandardCharsets.UTF_8)
              .replace("${version}", SvcVersion.current());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path launcher = out.resolve("svc");
    write(launcher, script.getBytes(StandardCharsets.UTF_8));
    try {
      Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (UnsupportedOperationException | IOException e) {
      launcher.toFile().setExecutable(true);
    }
    return "svc";
  }

  private static void write(Path file, byte[] bytes) {
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + reason(e), e);
    }
  }

  private static void copy(Path from, Path to) {
    try {
      Files.createDirectories(to.getParent());
      Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + from + " to " + to + ": " + reason(e), e);
    }
  }

  /**
   * What the file system said, for a message: {@code No space left on device}, {@code Permission
   * denied}, a folder on the way that is a file. "cannot write <file>" alone left the user to guess
   * why a build stopped half-way.
   */
  static String reason(IOException e) {
    return switch (e) {
      case FileAlreadyExistsException exists -> exists.getFile() + " exists and is not a folder";
      case NoSuchFileException missing ->
          "not found: " + missing.getFile() + " (or a folder on its way)";
      case FileSystemException fs when fs.getReason() != null -> fs.getReason();
      default -> e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    };
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.delete(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
              Files.delete(d);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + dir, e);
    }
  }
}
