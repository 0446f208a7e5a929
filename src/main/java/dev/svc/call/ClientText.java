package dev.svc.call;

/**
 * Text a client sent, as an error message shows it back: whole up to {@value #SHOWN} characters,
 * else its first {@value #SHOWN} and its length. A request of 4 MiB naming an unknown tool gets an
 * error of a few hundred bytes, not one of 4 MiB that a client might hand to its model.
 */
public final class ClientText {
  /** The most characters of a client's text an error message repeats. */
  public static final int SHOWN = 200;

  private ClientText() {}

  /** {@code text}, or its first {@value #SHOWN} characters and how long it is. */
  public static String shown(String text) {
    if (text.length() <= SHOWN) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(SHOWN - 1)) ? SHOWN - 1 : SHOWN;
    return text.substring(0, end) + "… (" + text.length() + " characters)";
  }
}
