package dev.svc.auth;

import dev.svc.call.Headers;
import java.util.List;
import java.util.Optional;

/**
 * Reads the access token from a request's {@code Authorization: Bearer} header, strictly (RFC 6750
 * §2.1): exactly one header, the {@code Bearer} scheme (in any case), one b64token. Shared by
 * {@code server.auth} and the {@code jwt} auth plugin, so both refuse the same headers.
 */
public final class BearerCredentials {
  private BearerCredentials() {}

  /** What the {@code Authorization} header holds. Messages never quote the header. */
  public sealed interface Read {}

  /** The request has no {@code Authorization} header. */
  public record Missing() implements Read {}

  /** The request has several {@code Authorization} headers. */
  public record Several() implements Read {}

  /** The header uses another scheme than {@code Bearer}. */
  public record OtherScheme() implements Read {}

  /** The header says {@code Bearer} but is not {@code Bearer <token>}. */
  public record Malformed() implements Read {}

  /** The token the header carries (a secret: never log or show it). */
  public record Token(String token) implements Read {
    @Override
    public String toString() {
      return "Token[…]";
    }
  }

  public static Read of(Headers headers) {
    List<String> sent = headers.all("authorization");
    if (sent.isEmpty()) {
      return new Missing();
    }
    if (sent.size() > 1) {
      return new Several();
    }
    String value = sent.getFirst().strip();
    // the scheme is the word before the first space: "Bearerfoo x" is another scheme
    if (!value.regionMatches(true, 0, "bearer", 0, 6)
        || (value.length() > 6 && value.charAt(6) != ' ' && value.charAt(6) != '\t')) {
      return new OtherScheme();
    }
    return token(value).<Read>map(Token::new).orElseGet(Malformed::new);
  }

  /**
   * The token of {@code Bearer 1*SP b64token *SP} (RFC 6750 §2.1; the scheme in any case), where
   * {@code b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="}; empty when
   * {@code value} is not of that form. A scan rather than a regular expression: it runs on every
   * request, over a token of a kilobyte or so.
   */
  static Optional<String> token(String value) {
    int length = value.length();
    if (length < 8 || !value.regionMatches(true, 0, "bearer", 0, 6) || value.charAt(6) != ' ') {
      return Optional.empty();
    }
    int i = 7;
    while (i < length && value.charAt(i) == ' ') {
      i++;
    }
    int start = i;
    while (i < length && isTokenCharacter(value.charAt(i))) {
      i++;
    }
    if (i == start) {
      return Optional.empty();
    }
    while (i < length && value.charAt(i) == '=') {
      i++;
    }
    int end = i;
    while (i < length && value.charAt(i) == ' ') {
      i++;
    }
    return i == length ? Optional.of(value.substring(start, end)) : Optional.empty();
  }

  private static boolean isTokenCharacter(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~'
        || c == '+'
        || c == '/';
  }
}
