package dev.svc.auth;

import dev.svc.call.Headers;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the access token from a request's {@code Authorization: Bearer} header, strictly (RFC 6750
 * §2.1): exactly one header, the {@code Bearer} scheme (in any case), one b64token. Shared by
 * {@code server.auth} and the {@code jwt} auth plugin, so both refuse the same headers.
 */
public final class BearerCredentials {
  /** RFC 6750 §2.1: {@code Bearer 1*SP b64token}; the scheme is case-insensitive. */
  private static final Pattern BEARER = Pattern.compile("(?i:bearer) +([A-Za-z0-9._~+/-]+=*) *");

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
    List<String> sent = headers.values().getOrDefault("authorization", List.of());
    if (sent.isEmpty()) {
      return new Missing();
    }
    if (sent.size() > 1) {
      return new Several();
    }
    String value = sent.getFirst().strip();
    if (!value.regionMatches(true, 0, "bearer", 0, 6)) {
      return new OtherScheme();
    }
    Matcher matcher = BEARER.matcher(value);
    return matcher.matches() ? new Token(matcher.group(1)) : new Malformed();
  }
}
