package dev.svc.diagnostic;

import java.util.Comparator;
import java.util.Optional;

/**
 * One problem found in a project. The {@code code} is a stable kebab-case word that tests and docs
 * refer to; the message and hint are for people.
 */
public record Diagnostic(
    Severity severity, String code, Origin origin, String message, Optional<String> hint)
    implements Comparable<Diagnostic> {

  private static final Comparator<Diagnostic> ORDER =
      Comparator.comparing(Diagnostic::origin)
          .thenComparing(Diagnostic::severity)
          .thenComparing(Diagnostic::code)
          .thenComparing(Diagnostic::message);

  public Diagnostic {
    if (!code.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*")) {
      throw new IllegalArgumentException("diagnostic code must be kebab-case: " + code);
    }
  }

  public static Diagnostic error(String code, Origin origin, String message) {
    return new Diagnostic(Severity.ERROR, code, origin, message, Optional.empty());
  }

  public static Diagnostic warning(String code, Origin origin, String message) {
    return new Diagnostic(Severity.WARNING, code, origin, message, Optional.empty());
  }

  public Diagnostic withHint(String hint) {
    return new Diagnostic(severity, code, origin, message, Optional.of(hint));
  }

  public boolean isError() {
    return severity == Severity.ERROR;
  }

  /** The text printed for this diagnostic: {@code file:line:col: error[code]: message}. */
  public String render() {
    String head = origin + ": " + severity.label() + "[" + code + "]: " + message;
    return hint.map(h -> head + "\n  hint: " + h).orElse(head);
  }

  @Override
  public int compareTo(Diagnostic other) {
    return ORDER.compare(this, other);
  }
}
