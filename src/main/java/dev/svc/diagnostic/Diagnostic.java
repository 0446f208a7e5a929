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

  /**
   * The text printed for this diagnostic: {@code file:line:col: error[code]: message}, and the hint
   * on a second line. Control characters of a name (a folder called {@code "a\nb"}) are written as
   * escapes, so that the diagnostic keeps its one line that editors and CI matchers read.
   */
  public String render() {
    String head =
        oneLine(origin.toString())
            + ": "
            + severity.label()
            + "["
            + code
            + "]: "
            + oneLine(message);
    return hint.map(h -> head + "\n  hint: " + oneLine(h)).orElse(head);
  }

  /** {@code text} with its control characters written as escapes ({@code \n}, {@code \u0001}). */
  static String oneLine(String text) {
    if (text.chars().noneMatch(Character::isISOControl)) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 8);
    text.chars()
        .forEach(c -> {
          switch (c) {
            case '\n' -> out.append("\\n");
            case '\r' -> out.append("\\r");
            case '\t' -> out.append("\\t");
            default -> {
              if (Character.isISOControl(c)) {
                out.append("\\u%04X".formatted(c));
              } else {
                out.append((char) c);
              }
            }
          }
        });
    return out.toString();
  }

  @Override
  public int compareTo(Diagnostic other) {
    return ORDER.compare(this, other);
  }
}
