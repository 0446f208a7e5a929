package dev.svc.cli;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Problems found while starting (an adapter that cannot be reached, …) pointed at the file and line
 * they come from. The runtime works from the model, which has no source positions, and names an
 * adapter's problem after the adapter ({@code adapter books}); {@code svc start} compiled the
 * sources and knows where each adapter's connection is written. {@code svc serve} of a built model
 * has no sources, and its problems keep the adapter's name.
 */
final class StartProblems {
  private static final String ADAPTER = "adapter ";

  private StartProblems() {}

  static List<Diagnostic> located(List<Diagnostic> problems, Map<String, Origin> adapterOrigins) {
    List<Diagnostic> located = new ArrayList<>(problems.size());
    for (Diagnostic problem : problems) {
      located.add(located(problem, adapterOrigins));
    }
    Collections.sort(located);
    return located;
  }

  private static Diagnostic located(Diagnostic problem, Map<String, Origin> adapterOrigins) {
    String file = problem.origin().file();
    if (problem.origin().line() != 0 || !file.startsWith(ADAPTER)) {
      return problem;
    }
    Origin written = adapterOrigins.get(file.substring(ADAPTER.length()));
    if (written == null) {
      return problem;
    }
    return new Diagnostic(
        problem.severity(),
        problem.code(),
        written,
        file + ": " + problem.message(),
        problem.hint());
  }
}
