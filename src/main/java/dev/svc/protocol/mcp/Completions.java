package dev.svc.protocol.mcp;

import java.text.Normalizer;
import java.util.Locale;

/** How {@code completion/complete} compares what a user typed with the values it offers. */
final class Completions {
  private Completions() {}

  /**
   * {@code text} folded for a prefix match that ignores case and accents' composition: decomposed
   * (NFKD), its combining marks dropped, then lower-cased. So {@code ist} finds {@code İstanbul}
   * (whose lower case is {@code i̇stanbul}, an {@code i} and a combining dot) and {@code e} finds
   * {@code Éclair}.
   */
  static String folded(String text) {
    String decomposed = Normalizer.normalize(text, Normalizer.Form.NFKD);
    return decomposed.replaceAll("\\p{M}", "").toLowerCase(Locale.ROOT);
  }
}
