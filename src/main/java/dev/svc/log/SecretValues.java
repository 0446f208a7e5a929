package dev.svc.log;

import java.util.Collection;

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

  private SecretValues() {}

  /**
   * {@code text} with every value of {@code secrets} (one of 8 characters or more; after a {@code
   * Bearer } scheme, the token) replaced by {@value #REDACTED}.
   */
  public static String removedFrom(String text, Collection<String> secrets) {
    String cleaned = text;
    for (String value : secrets) {
      String secret = value.regionMatches(true, 0, "Bearer ", 0, 7) ? value.substring(7) : value;
      if (secret.length() >= SHORTEST) {
        cleaned = cleaned.replace(secret, REDACTED);
      }
    }
    return cleaned;
  }
}
