package dev.svc.cli;

import dev.svc.compile.Compilation;
import dev.svc.compile.Compiler;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.project.Project;
import dev.svc.script.TypeChecker;
import dev.svc.script.TypeDeclarations;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Compiles a located project and prints its diagnostics the one way every command does. */
final class ProjectCompiler {
  private ProjectCompiler() {}

  /** The compilation, or empty after printing every error. Warnings are printed either way. */
  static Optional<Compilation.Success> compile(Project project, CliContext context) {
    Compilation compilation = compilation(project, context);
    print(compilation.diagnostics(), context.err());
    return compilation instanceof Compilation.Success success
        ? Optional.of(success)
        : Optional.empty();
  }

  /**
   * The compilation when it succeeded, or empty after printing every error. A project with scripts
   * gets its type declarations written ({@link #writeTypes}).
   */
  static Optional<Compilation.Success> compiled(Project project, CliContext context) {
    Compilation compilation = compilation(project, context);
    print(compilation.diagnostics(), context.err());
    return switch (compilation) {
      case Compilation.Success success -> {
        writeTypes(project.directory(), success.model());
        yield Optional.of(success);
      }
      case Compilation.Failure failure -> Optional.empty();
    };
  }

  /**
   * {@code svc validate}: the model when the project compiles and, with {@code typeCheck}, its
   * scripts type-check; empty after printing every error. Compile and type errors are printed
   * together.
   */
  static Optional<Model> validated(Project project, CliContext context, boolean typeCheck) {
    Compilation compilation = compilation(project, context);
    if (!(compilation instanceof Compilation.Success success)) {
      print(compilation.diagnostics(), context.err());
      return Optional.empty();
    }
    writeTypes(project.directory(), success.model());
    List<Diagnostic> all = new ArrayList<>(success.diagnostics());
    if (typeCheck) {
      all.addAll(TypeChecker.check(project.directory(), success.model()));
    }
    List<Diagnostic> sorted = all.stream().sorted().toList();
    print(sorted, context.err());
    return sorted.stream().anyMatch(Diagnostic::isError)
        ? Optional.empty()
        : Optional.of(success.model());
  }

  private static Compilation compilation(Project project, CliContext context) {
    Environment environment =
        Environment.load(context.workingDirectory(), project.directory(), context.environment());
    return Compiler.compile(project, environment);
  }

  /**
   * Writes the TypeScript declarations of a project that has scripts ({@link TypeDeclarations}); a
   * project directory that cannot be written (read-only, a mounted volume) is left as it is.
   */
  static void writeTypes(Path projectDirectory, Model model) {
    if (!TypeDeclarations.hasScripts(model)) {
      return;
    }
    try {
      TypeDeclarations.write(projectDirectory, model);
    } catch (UncheckedIOException e) {
      // the declarations only help editors and svc validate's type check, which has its own copy
    }
  }

  static void print(List<Diagnostic> diagnostics, PrintWriter err) {
    if (diagnostics.isEmpty() || JsonConsole.printed(diagnostics, err)) {
      return;
    }
    for (Diagnostic diagnostic : diagnostics) {
      err.println(diagnostic.render());
    }
    err.println(Diagnostics.summary(diagnostics));
    err.flush();
  }

  /** One line describing what a model holds, e.g. {@code 3 tools, 1 adapter, 2 prompts}. */
  static String contents(Model model) {
    return String.join(
        ", ",
        count(model.tools().size(), "tool"),
        count(model.adapters().size(), "adapter"),
        count(model.prompts().size(), "prompt"),
        count(model.resources().size() + model.resourceTemplates().size(), "resource"),
        count(model.agents().size(), "agent"));
  }

  private static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
