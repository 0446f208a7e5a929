package dev.svc.diagnostic;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean" suggestions by edit distance. */
public final class Suggestions {
  private Suggestions() {}

  /** The candidate closest to {@code word}, if it is close enough to be a plausible typo. */
  public static Optional<String> closest(String word, Collection<String> candidates) {
    String needle = word.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = distance(needle, candidate.toLowerCase(Locale.ROOT));
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    int allowed = Math.max(1, Math.min(3, best.length() / 3));
    boolean close = bestDistance <= allowed;
    boolean sameStem =
        needle.length() >= 3 && (best.startsWith(needle) || needle.startsWith(best.toLowerCase()));
    return close || sameStem ? Optional.of(best) : Optional.empty();
  }

  /** A hint sentence, or empty when nothing is close. */
  public static Optional<String> didYouMean(String word, Collection<String> candidates) {
    return closest(word, candidates).map(c -> "did you mean `" + c + "`?");
  }

  /**
   * The candidate that {@code word} is almost certainly a misspelling of: a word of at least three
   * characters within two edits (one for candidates of four characters or fewer, so that {@code
   * port} is not taken for {@code root}). Case is ignored.
   */
  public static Optional<String> misspelt(String word, Collection<String> candidates) {
    if (word.length() < 3) {
      return Optional.empty();
    }
    String needle = word.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = distance(needle, candidate.toLowerCase(Locale.ROOT));
      int allowed = candidate.length() <= 4 ? 1 : 2;
      if (distance <= allowed && distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
