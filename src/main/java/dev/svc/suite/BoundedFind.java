package dev.svc.suite;

import dev.svc.json.CountedText;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A regular expression's search with a bound on its steps. A test's pattern runs on what the tool
 * returned, and some patterns backtrack for ever on some texts ({@code ^(([a-z ]|[a-z :])+)+X} on a
 * 40-character error message ran for hours), which hung {@code svc test}. The text is handed to the
 * matcher as a {@link CountedText}, the same bound schema patterns and URI templates have: the
 * search is given up once it has read {@link #STEPS} characters more than a few passes over the
 * text need. Steps rather than a clock, so that a run judges a pattern the same on every machine.
 */
public final class BoundedFind {
  private BoundedFind() {}

  /**
   * Character reads one search may make beyond {@link #PER_CHARACTER} per character of its text.
   */
  static final long STEPS = 50_000_000;

  /** Reads allowed per character of the text: a few scans of it, for any pattern that ends. */
  static final long PER_CHARACTER = 16;

  /** Whether {@code pattern} finds a match in {@code text}; empty when the search took too long. */
  public static Optional<Boolean> find(Pattern pattern, String text) {
    return find(pattern, text, STEPS + PER_CHARACTER * text.length());
  }

  static Optional<Boolean> find(Pattern pattern, String text, long steps) {
    try {
      return Optional.of(pattern.matcher(CountedText.of(text, steps)).find());
    } catch (CountedText.BudgetExceeded e) {
      return Optional.empty();
    }
  }

  /** The message of a mismatch for a search given up. */
  public static String givenUp(Pattern pattern) {
    return "matching /"
        + pattern.pattern()
        + "/ took more than "
        + STEPS / 1_000_000
        + " million steps and was given up (a pattern with nested repetition, such as `(a+)+`, can"
        + " backtrack for ever): simplify the pattern";
  }
}
