package dev.svc.diagnostic;

import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

  /** The most characters of a value a message quotes ({@code `…`}) before it is shown cut. */
  static final int QUOTED = 200;

  /** The most characters of a message or hint, after its quoted values are cut. */
  static final int LONGEST = 2_000;

  private static final Pattern LONG_QUOTE = Pattern.compile("`([^`]{" + (QUOTED + 1) + ",})`");

  /**
   * A message or hint longer than {@value #LONGEST} characters (a value of 100,000 characters in a
   * file, repeated) is kept readable: each quoted value over {@value #QUOTED} characters shows its
   * beginning and its length, and what is still too long is cut the same way.
   */
  public Diagnostic {
    if (!code.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*")) {
      throw new IllegalArgumentException("diagnostic code must be kebab-case: " + code);
    }
    message = readable(message);
    hint = hint.map(Diagnostic::readable);
  }

  static String readable(String text) {
    if (text.length() <= LONGEST) {
      return text;
    }
    String quotesCut =
        LONG_QUOTE
            .matcher(text)
            .replaceAll(quote -> Matcher.quoteReplacement("`" + cut(quote.group(1), QUOTED) + "`"));
    return cut(quotesCut, LONGEST);
  }

  private static String cut(String text, int keep) {
    if (text.length() <= keep) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(keep - 1)) ? keep - 1 : keep;
    return text.substring(0, end) + "… (" + text.length() + " characters)";
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
