package dev.svc.suite;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A regular expression's search with a time limit. A test's pattern runs on what the tool returned,
 * and some patterns backtrack for ever on some texts ({@code ^(([a-z ]|[a-z :])+)+X} on a
 * 40-character error message ran for hours), which hung {@code svc test}. Java's matcher cannot be
 * interrupted, but it reads its text only through {@link CharSequence#charAt}, so the text given to
 * it checks the clock and stops the search once the limit has passed.
 */
public final class BoundedFind {
  private BoundedFind() {}

  /** How long one search may take before it is given up. */
  public static final Duration LIMIT = Duration.ofSeconds(2);

  /** How often (in characters read) the clock is looked at. */
  private static final int CHECK_EVERY = 4096;

  /** Whether {@code pattern} finds a match in {@code text}; empty when the search took too long. */
  public static Optional<Boolean> find(Pattern pattern, String text) {
    return find(pattern, text, LIMIT);
  }

  static Optional<Boolean> find(Pattern pattern, String text, Duration limit) {
    try {
      return Optional.of(
          pattern.matcher(new Timed(text, System.nanoTime() + limit.toNanos())).find());
    } catch (TooLong e) {
      return Optional.empty();
    }
  }

  /** The message of a mismatch for a search given up. */
  public static String givenUp(Pattern pattern) {
    return "matching /"
        + pattern.pattern()
        + "/ took more than "
        + LIMIT.toSeconds()
        + " s and was given up (a pattern with nested repetition, such as `(a+)+`, can backtrack"
        + " for ever): simplify the pattern";
  }

  private static final class TooLong extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooLong() {
      super(null, null, false, false);
    }
  }

  /** {@code text} whose reads stop the search once the deadline has passed. */
  private static final class Timed implements CharSequence {
    private final String text;
    private final long deadline;
    private int reads;

    Timed(String text, long deadline) {
      this.text = text;
      this.deadline = deadline;
    }

    @Override
    public char charAt(int index) {
      if (++reads >= CHECK_EVERY) {
        reads = 0;
        if (System.nanoTime() - deadline > 0) {
          throw new TooLong();
        }
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new Timed(text.substring(start, end), deadline);
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
