package dev.svc.call;

/**
 * Text a client sent, as svc shows it back. In an error answer ({@link #shown}): whole up to
 * {@value #SHOWN} characters, else its first {@value #SHOWN} and its length, so a request of 4 MiB
 * naming an unknown tool gets an error of a few hundred bytes, not one of 4 MiB that a client might
 * hand to its model. In a message that may be logged ({@link #printable}): short, and printable
 * ASCII only.
 */
public final class ClientText {
  /** The most characters of a client's text an error message repeats. */
  public static final int SHOWN = 200;

  private ClientText() {}

  /** The most characters of a client's text that {@link #printable} shows. */
  public static final int PRINTABLE = 100;

  /**
   * {@code text} for a message that may reach a log line (a token's claims, a header's parts): at
   * most {@value #PRINTABLE} characters, then {@code …}, each outside printable ASCII as {@code ?},
   * so that a client cannot write line breaks or terminal controls into svc's log.
   */
  public static String printable(String text) {
    String cut = text.length() > PRINTABLE ? text.substring(0, PRINTABLE) + "…" : text;
    return cut.replaceAll("[^\\x20-\\x7E…]", "?");
  }

  /** {@code text}, or its first {@value #SHOWN} characters and how long it is. */
  public static String shown(String text) {
    if (text.length() <= SHOWN) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(SHOWN - 1)) ? SHOWN - 1 : SHOWN;
    return text.substring(0, end) + "… (" + text.length() + " characters)";
  }
}
