package dev.svc.auth;

import dev.svc.call.Caller;
import dev.svc.call.Headers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * {@code api_key}: the {@code X-API-Key} header must equal the expected key, compared in constant
 * time. Without an expected key every call is refused.
 */
public final class ApiKeyPlugin implements AuthPlugin {
  public static final String HEADER = "X-API-Key";

  private final Optional<byte[]> expected;

  /**
   * @param expected {@code policy.value} after env substitution, else {@code SVC_API_KEY}
   */
  public ApiKeyPlugin(Optional<String> expected) {
    this.expected = expected.filter(k -> !k.isEmpty()).map(k -> k.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public AuthDecision authorize(Caller caller) {
    if (expected.isEmpty()) {
      return new AuthDecision.Deny(
          "this tool requires an API key, but none is configured on the server");
    }
    Optional<String> given = caller.headers().first(HEADER);
    if (given.isEmpty()) {
      return new AuthDecision.Deny("missing API key: send it in the X-API-Key header");
    }
    byte[] key = given.get().getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(key, expected.get())) {
      return new AuthDecision.Deny("invalid API key");
    }
    return new AuthDecision.Allow("key:" + fingerprint(key));
  }

  @Override
  public boolean takesForAGuess(Headers headers) {
    Optional<String> given = headers.first(HEADER);
    return expected.isEmpty()
        || given.isEmpty()
        || !MessageDigest.isEqual(given.get().getBytes(StandardCharsets.UTF_8), expected.get());
  }

  /**
   * The first 12 hex digits of the key's SHA-256: identifies a caller without revealing the key.
   */
  static String fingerprint(byte[] key) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(key);
      return HexFormat.of().formatHex(hash, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
