package dev.svc.cli;

import dev.svc.compile.Compilation;
import dev.svc.compile.Compiler;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.project.Project;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;

/** Compiles a located project and prints its diagnostics the one way every command does. */
final class ProjectCompiler {
  private ProjectCompiler() {}

  /** The model, or empty after printing every error. Warnings are printed either way. */
  static Optional<Model> compile(Project project, CliContext context) {
    return compiled(project, context).map(Compilation.Success::model);
  }

  /** The compilation when it succeeded, or empty after printing every error. */
  static Optional<Compilation.Success> compiled(Project project, CliContext context) {
    Environment environment =
        Environment.load(context.workingDirectory(), project.directory(), context.environment());
    Compilation compilation = Compiler.compile(project, environment);
    print(compilation.diagnostics(), context.err());
    return switch (compilation) {
      case Compilation.Success success -> Optional.of(success);
      case Compilation.Failure failure -> Optional.empty();
    };
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
