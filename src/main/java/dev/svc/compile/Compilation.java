package dev.svc.compile;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import dev.svc.model.Model;
import dev.svc.suite.Suite;
import java.util.List;
import java.util.Map;

/** The outcome of compiling a project: a model with its warnings, or the diagnostics. */
public sealed interface Compilation {

  /** Every diagnostic, sorted. */
  List<Diagnostic> diagnostics();

  /**
   * The project is valid.
   *
   * @param adapterOrigins where each adapter's connection is written (its {@code
   *     connection_string}, else its file), for problems found once svc connects: the model itself
   *     carries no source positions
   * @param suites the project's tests ({@code tests.terse} files), run by {@code svc test}; not
   *     part of the model, so a build never carries them
   */
  record Success(
      Model model,
      List<Diagnostic> diagnostics,
      Map<String, Origin> adapterOrigins,
      List<Suite> suites)
      implements Compilation {
    public Success {
      diagnostics = List.copyOf(diagnostics);
      adapterOrigins = Map.copyOf(adapterOrigins);
      suites = List.copyOf(suites);
    }

    public Success(Model model, List<Diagnostic> diagnostics, Map<String, Origin> adapterOrigins) {
      this(model, diagnostics, adapterOrigins, List.of());
    }

    public Success(Model model, List<Diagnostic> diagnostics) {
      this(model, diagnostics, Map.of());
    }
  }

  /** The project has at least one error. */
  record Failure(List<Diagnostic> diagnostics) implements Compilation {
    public Failure {
      diagnostics = List.copyOf(diagnostics);
    }
  }
}
