package dev.svc.call;

/** What svc may send as an HTTP header value it was given (a key, a token, credentials). */
public final class HeaderValues {
  private HeaderValues() {}

  /**
   * Whether {@code value} may be sent as a header value: tabs and visible ASCII with spaces. The
   * HTTP client refuses anything else with an error that quotes the value, which is a secret here.
   */
  public static boolean safe(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\t' && (c < 0x20 || c > 0x7E)) {
        return false;
      }
    }
    return true;
  }
}
