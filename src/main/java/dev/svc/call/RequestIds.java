package dev.svc.call;

import java.util.concurrent.ThreadLocalRandom;

/** Short random request ids: 12 hex digits, enough to find a request in the logs. */
public final class RequestIds {
  private RequestIds() {}

  public static String next() {
    return String.format("%012x", ThreadLocalRandom.current().nextLong() & 0xFFFF_FFFF_FFFFL);
  }
}
