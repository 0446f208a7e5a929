package dev.svc.call;

import java.util.concurrent.ThreadLocalRandom;

/** Short random request ids: 12 hex digits, enough to find a request in the logs. */
public final class RequestIds {
  private RequestIds() {}

  public static String next() {
    long bits = ThreadLocalRandom.current().nextLong() | (1L << 48);
    return Long.toHexString(bits & 0x1_FFFF_FFFF_FFFFL).substring(1);
  }
}
