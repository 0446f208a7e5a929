package dev.svc.diagnostic;

import java.util.Collection;
import java.util.Optional;

/**
 * "Did you mean" suggestions by edit distance, case ignored.
 *
 * <p>The word may come from a client (an unknown tool's name in a request of up to 4 MiB), so the
 * work is bounded by the candidates, not by the word: an edit distance is only computed between
 * words whose lengths differ by no more than the edits a suggestion allows, in memory of three rows
 * of the candidate's length, and no lower-case copy of the word is made.
 */
public final class Suggestions {
  /** The most edits between a word and a name it is taken to be a typo of. */
  private static final int MOST_EDITS = 3;

  private Suggestions() {}

  /**
   * The candidate {@code word} is a plausible typo of: the closest within the edits its length
   * allows (one per three characters, one to three), or else — for a word of three characters or
   * more — the closest candidate it begins, or that begins with it.
   */
  public static Optional<String> closest(String word, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = distanceWithin(word, candidate, MOST_EDITS);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    if (best != null && bestDistance <= Math.max(1, Math.min(MOST_EDITS, best.length() / 3))) {
      return Optional.of(best);
    }
    if (word.length() < 3) {
      return Optional.empty();
    }
    String stem = null;
    int stemDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int apart = Math.abs(word.length() - candidate.length());
      if (apart < stemDistance && (startsWith(word, candidate) || startsWith(candidate, word))) {
        stem = candidate;
        stemDistance = apart;
      }
    }
    return Optional.ofNullable(stem);
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
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = distanceWithin(word, candidate, 2);
      int allowed = candidate.length() <= 4 ? 1 : 2;
      if (distance <= allowed && distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Whether {@code text} begins with {@code prefix}, case ignored. */
  private static boolean startsWith(String text, String prefix) {
    return text.regionMatches(true, 0, prefix, 0, prefix.length());
  }

  /**
   * The optimal string alignment distance (Levenshtein plus adjacent transpositions) between {@code
   * a} and {@code b}, case ignored, when it is at most {@code limit}; {@code limit + 1} when it is
   * more.
   */
  static int distanceWithin(String a, String b, int limit) {
    if (Math.abs(a.length() - b.length()) > limit) {
      return limit + 1; // each edit changes the length by one at most
    }
    int[] beforeLast = new int[b.length() + 1];
    int[] last = new int[b.length() + 1];
    int[] row = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      last[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      row[0] = i;
      int smallest = i;
      char ai = lower(a.charAt(i - 1));
      for (int j = 1; j <= b.length(); j++) {
        char bj = lower(b.charAt(j - 1));
        int cost = ai == bj ? 0 : 1;
        int d = Math.min(Math.min(last[j] + 1, row[j - 1] + 1), last[j - 1] + cost);
        if (i > 1 && j > 1 && ai == lower(b.charAt(j - 2)) && lower(a.charAt(i - 2)) == bj) {
          d = Math.min(d, beforeLast[j - 2] + 1);
        }
        row[j] = d;
        smallest = Math.min(smallest, d);
      }
      if (smallest > limit) {
        return limit + 1; // every later row is at least as far
      }
      int[] spare = beforeLast;
      beforeLast = last;
      last = row;
      row = spare;
    }
    return Math.min(last[b.length()], limit + 1);
  }

  private static char lower(char c) {
    return Character.toLowerCase(c);
  }
}
