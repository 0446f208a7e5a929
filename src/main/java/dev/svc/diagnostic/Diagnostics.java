package dev.svc.diagnostic;

import java.util.ArrayList;
import java.util.List;

/** Collects diagnostics while a project is read, so that every problem is reported at once. */
public final class Diagnostics {
  private final List<Diagnostic> all = new ArrayList<>();

  public Diagnostic error(String code, Origin origin, String message) {
    return add(Diagnostic.error(code, origin, message));
  }

  public Diagnostic warning(String code, Origin origin, String message) {
    return add(Diagnostic.warning(code, origin, message));
  }

  public Diagnostic error(String code, Origin origin, String message, String hint) {
    return add(Diagnostic.error(code, origin, message).withHint(hint));
  }

  public Diagnostic warning(String code, Origin origin, String message, String hint) {
    return add(Diagnostic.warning(code, origin, message).withHint(hint));
  }

  public Diagnostic add(Diagnostic diagnostic) {
    all.add(diagnostic);
    return diagnostic;
  }

  public void addAll(List<Diagnostic> diagnostics) {
    all.addAll(diagnostics);
  }

  public int errorCount() {
    return (int) all.stream().filter(Diagnostic::isError).count();
  }

  public boolean hasErrors() {
    return all.stream().anyMatch(Diagnostic::isError);
  }

  /** Every diagnostic so far, sorted by file, line and column. */
  public List<Diagnostic> sorted() {
    return all.stream().sorted().distinct().toList();
  }

  /** The summary line, e.g. {@code 2 errors, 1 warning}. */
  public static String summary(List<Diagnostic> diagnostics) {
    long errors = diagnostics.stream().filter(Diagnostic::isError).count();
    long warnings = diagnostics.size() - errors;
    return plural(errors, "error") + ", " + plural(warnings, "warning");
  }

  private static String plural(long count, String noun) {
    return count + " " + noun + (count == 1 ? "" : "s");
  }
}
