package dev.svc.auth;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * HMAC-SHA256 (RFC 2104) over the JDK's SHA-256, the signature of svc's session ids, request states
 * and page cursors.
 *
 * <p>Not {@code javax.crypto.Mac}: the JDK finds a {@code Mac} by making every security provider
 * listed before SunJCE (SunRsaSign, SunEC, SunJSSE; asking for SunJCE by name makes them too), ~10
 * ms of CPU that every start paid for its first signature (bench/RESULTS.md, "Start-up, issue 21").
 * SHA-256 comes from the first provider, SUN, which the start has loaded already. The construction
 * is the RFC's; {@code HmacSha256Test} checks it against RFC 4231's test vectors and against {@code
 * javax.crypto.Mac} for keys and messages of many lengths.
 */
public final class HmacSha256 {
  /** SHA-256's block size in bytes. */
  private static final int BLOCK = 64;

  private static final byte INNER_PAD = 0x36;
  private static final byte OUTER_PAD = 0x5c;

  private HmacSha256() {}

  /** The HMAC-SHA256 of {@code message} under {@code key}. */
  public static byte[] sign(byte[] key, byte[] message) {
    return sign(key, message, 0, message.length);
  }

  /** The HMAC-SHA256 of {@code length} bytes of {@code message} from {@code offset}. */
  public static byte[] sign(byte[] key, byte[] message, int offset, int length) {
    MessageDigest sha256 = sha256();
    byte[] block = key.length > BLOCK ? sha256.digest(key) : key;
    byte[] pad = new byte[BLOCK];
    for (int i = 0; i < BLOCK; i++) {
      pad[i] = (byte) ((i < block.length ? block[i] : 0) ^ INNER_PAD);
    }
    sha256.update(pad);
    sha256.update(message, offset, length);
    byte[] inner = sha256.digest();
    for (int i = 0; i < BLOCK; i++) {
      pad[i] = (byte) ((i < block.length ? block[i] : 0) ^ OUTER_PAD);
    }
    sha256.update(pad);
    sha256.update(inner);
    return sha256.digest();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
