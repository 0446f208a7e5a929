package dev.svc.auth;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.Security;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256, the signature of svc's session ids, request states and page cursors, from the JDK's
 * {@code SunJCE} provider asked for by name. The JDK's usual lookup ({@code Mac.getInstance(alg)})
 * walks the provider list in order and makes SunRsaSign, SunEC and SunJSSE on its way to SunJCE: ~8
 * ms of CPU on the first signature, which every start pays (bench/RESULTS.md, "Start-up, issue
 * 21"). A JDK without SunJCE (a FIPS configuration, say) gets the usual lookup.
 */
public final class HmacSha256 {
  private static final String ALGORITHM = "HmacSHA256";

  private HmacSha256() {}

  /** The HMAC-SHA256 of {@code message} under {@code key}. */
  public static byte[] sign(byte[] key, byte[] message) {
    Mac mac = keyed(key);
    return mac.doFinal(message);
  }

  /** A fresh {@link Mac} keyed with {@code key}, for messages given in parts. */
  public static Mac keyed(byte[] key) {
    try {
      Mac mac =
          SunJce.PROVIDER == null
              ? Mac.getInstance(ALGORITHM)
              : Mac.getInstance(ALGORITHM, SunJce.PROVIDER);
      mac.init(new SecretKeySpec(key, ALGORITHM));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is not available", e);
    }
  }

  /** Looked up once, on the first signature. */
  private static final class SunJce {
    static final Provider PROVIDER = Security.getProvider("SunJCE");
  }
}
