package dev.svc.compile;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.model.Model;
import java.util.List;

/** The outcome of compiling a project: a model with its warnings, or the diagnostics. */
public sealed interface Compilation {

  /** Every diagnostic, sorted. */
  List<Diagnostic> diagnostics();

  /** The project is valid. */
  record Success(Model model, List<Diagnostic> diagnostics) implements Compilation {
    public Success {
      diagnostics = List.copyOf(diagnostics);
    }
  }

  /** The project has at least one error. */
  record Failure(List<Diagnostic> diagnostics) implements Compilation {
    public Failure {
      diagnostics = List.copyOf(diagnostics);
    }
  }
}
