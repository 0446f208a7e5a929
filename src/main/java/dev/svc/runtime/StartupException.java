package dev.svc.runtime;

import dev.svc.SvcException;
import dev.svc.diagnostic.Diagnostic;
import java.util.List;

/** Serving cannot start: every reason found (missing variables, unreachable databases). */
public final class StartupException extends SvcException {
  private final List<Diagnostic> problems;

  public StartupException(List<Diagnostic> problems) {
    super(problems.size() + " problem(s) prevent serving");
    this.problems = List.copyOf(problems);
  }

  public List<Diagnostic> problems() {
    return problems;
  }
}
