package dev.svc.log;

import java.util.Collection;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text svc logs or shows (a provider's error, a script's thrown message and stack) without secret
 * values it knows: the API key it sent, an auth plugin's policy values filled in from the
 * environment, the credentials a caller sent. Such text quotes them: "Invalid API key provided:
 * Bearer sk-…", V8's {@code Unexpected token 'P', "P4ss…" is not valid JSON}.
 */
public final class SecretValues {
  /** What a secret becomes. */
  public static final String REDACTED = "[redacted]";

  /** Shorter values are left: replacing them would redact ordinary words. */
  private static final int SHORTEST = 8;

  /**
   * A piece V8 cut from a longer text it quotes: {@code "Bearer sk-"...}, {@code ..."x7Qe2"...},
   * {@code ..."end of it"} (at most ten characters either side of where {@code JSON.parse} failed).
   */
  private static final Pattern CUT_QUOTE =
      Pattern.compile("\\.\\.\\.\"([^\"]{1,40})\"(?:\\.\\.\\.)?|\"([^\"]{1,40})\"\\.\\.\\.");

  /** A cut piece at least this long is looked for in the secrets. */
  private static final int SHORTEST_PIECE = 4;

  private SecretValues() {}

  /**
   * {@code text} with every value of {@code secrets} (one of 8 characters or more; after a {@code
   * Bearer } scheme, the token) replaced by {@value #REDACTED}, and every piece of one that V8 cut
   * out to quote (four characters or more, between quotes and beside {@code ...}) likewise.
   */
  public static String removedFrom(String text, Collection<String> secrets) {
    String cleaned = text;
    for (String value : secrets) {
      String secret = value.regionMatches(true, 0, "Bearer ", 0, 7) ? value.substring(7) : value;
      if (secret.length() >= SHORTEST) {
        cleaned = cleaned.replace(secret, REDACTED);
      }
    }
    return cleaned.contains("...") ? withoutCutPieces(cleaned, secrets) : cleaned;
  }

  private static String withoutCutPieces(String text, Collection<String> secrets) {
    Matcher quote = CUT_QUOTE.matcher(text);
    StringBuilder cleaned = new StringBuilder(text.length());
    while (quote.find()) {
      int group = quote.group(1) != null ? 1 : 2;
      String piece = quote.group(group);
      String replacement = quote.group();
      if (piece.length() >= SHORTEST_PIECE && isPieceOfASecret(piece, secrets)) {
        replacement =
            text.substring(quote.start(), quote.start(group))
                + REDACTED
                + text.substring(quote.end(group), quote.end());
      }
      quote.appendReplacement(cleaned, Matcher.quoteReplacement(replacement));
    }
    quote.appendTail(cleaned);
    return cleaned.toString();
  }

  private static boolean isPieceOfASecret(String piece, Collection<String> secrets) {
    for (String secret : secrets) {
      if (secret.length() >= SHORTEST && secret.contains(piece)) {
        return true;
      }
    }
    return false;
  }
}
