package dev.svc.json;

/**
 * A string whose character reads are counted against a budget shared by its sub-sequences: handed
 * to a JDK regular expression, it bounds the steps of a backtracking match, which on a near-miss
 * input can grow with the square (or a higher power) of its length. Used by JSON Schema {@code
 * pattern}s and by resource URI templates.
 *
 * @param budget one cell: the reads left, shared by every text made from this one
 */
public record CountedText(String text, long[] budget) implements CharSequence {
  /** Thrown out of a match that ran out of steps; the caller decides what that means. */
  public static final class BudgetExceeded extends RuntimeException {
    BudgetExceeded() {
      super("a match took too many steps", null, false, false);
    }
  }

  /** {@code text} with a budget of its own of {@code steps} reads. */
  public static CountedText of(String text, long steps) {
    return new CountedText(text, new long[] {steps});
  }

  @Override
  public char charAt(int index) {
    if (--budget[0] < 0) {
      throw new BudgetExceeded();
    }
    return text.charAt(index);
  }

  @Override
  public int length() {
    return text.length();
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return new CountedText(text.substring(start, end), budget);
  }

  @Override
  public String toString() {
    return text;
  }
}
