package dev.svc.testing;

import dev.svc.cache.ResultCache;
import dev.svc.compile.Compilation;
import dev.svc.compile.Compiler;
import dev.svc.connector.Connectors;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.project.Project;
import dev.svc.project.ProjectLocator;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.script.UnavailableScriptRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes small projects for tests from one text block: each file starts with a line {@code ==
 * path}, and the lines up to the next such line are its content.
 *
 * <pre>
 * == .svc
 * name: demo
 * == app/tools/hello/config.terse
 * description: Says hello.
 * handler: handler.ts
 * </pre>
 */
public final class ProjectFixture {
  private ProjectFixture() {}

  /** Writes the files under {@code directory} and returns it. */
  public static Path write(Path directory, String files) {
    try {
      String path = null;
      StringBuilder content = new StringBuilder();
      for (String line : (files + "\n== <end>").split("\n", -1)) {
        if (line.startsWith("== ")) {
          if (path != null) {
            Path file = directory.resolve(path);
            Files.createDirectories(file.getParent());
            Files.writeString(file, content.toString());
          }
          path = line.substring(3).strip();
          content.setLength(0);
        } else if (path != null) {
          content.append(line).append('\n');
        }
      }
      return directory;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Compiles the project in {@code directory} with an empty environment. */
  public static Compilation compile(Path directory) {
    Project project = ProjectLocator.locate(Optional.empty(), Optional.empty(), directory);
    return Compiler.compile(project, Environment.of(Map.of()));
  }

  /** Writes and compiles; returns every diagnostic rendered as the CLI prints it (no hints). */
  public static List<String> diagnostics(Path directory, String files) {
    return compile(write(directory, files)).diagnostics().stream()
        .map(ProjectFixture::line)
        .toList();
  }

  /** Writes and compiles a project that must be valid; returns its model. */
  public static Model model(Path directory, String files) {
    Compilation compilation = compile(write(directory, files));
    if (compilation instanceof Compilation.Success success) {
      return success.model();
    }
    throw new AssertionError(
        "expected a valid project, got:\n"
            + String.join(
                "\n", compilation.diagnostics().stream().map(Diagnostic::render).toList()));
  }

  /**
   * The runtime of a model compiled from {@code directory}: real connectors, no environment and no
   * script engine (a script tool fails as when scripts are unavailable). The caller closes it.
   */
  public static ProjectRuntime runtimeWithoutScripts(Model model, Path directory) {
    return ProjectRuntime.start(
        model,
        new ProjectRuntime.Settings(
            Environment.of(Map.of()),
            directory,
            Connectors::open,
            new UnavailableScriptRunner(),
            ResultCache.DEFAULT_MAX_BYTES));
  }

  /** The root file a project gets from {@link #report} when the text block has none. */
  public static final String DEFAULT_ROOT = "== .svc\nname: shop\n";

  /**
   * Writes and compiles a project and returns what {@code svc validate} prints on stderr: every
   * diagnostic with its hint, then the summary line; empty when there is nothing to report. A text
   * block without a {@code == .svc} file gets {@link #DEFAULT_ROOT}.
   */
  public static String report(Path directory, String files) {
    String project = files.contains("== .svc\n") ? files : DEFAULT_ROOT + files;
    List<Diagnostic> diagnostics = compile(write(directory, project)).diagnostics();
    if (diagnostics.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    diagnostics.forEach(d -> out.append(d.render()).append('\n'));
    return out.append(Diagnostics.summary(diagnostics)).append('\n').toString();
  }

  /** A diagnostic's first line: {@code file:line:col: severity[code]: message}. */
  public static String line(Diagnostic diagnostic) {
    return diagnostic.origin()
        + ": "
        + diagnostic.severity().label()
        + "["
        + diagnostic.code()
        + "]: "
        + diagnostic.message();
  }
}
