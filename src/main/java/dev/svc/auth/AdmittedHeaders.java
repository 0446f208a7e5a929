package dev.svc.auth;

import dev.svc.call.VerifiedToken;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code Authorization} header values that {@code server.auth} admitted lately, each with the
 * token it carried. A client sends the same header with every request, so its next request is
 * admitted with one lookup: no parsing of the header, no hashing of the token, no scope check again
 * (profiling showed these at about half of what auth added to a cached-token call).
 *
 * <p>Only an exact match of the whole header counts, so nothing is admitted that was not verified
 * and found to carry the scopes; an entry counts only while its token is valid (its {@code exp} and
 * the verifier's {@link TokenVerifier#LEEWAY}). Bounded by {@link TokenVerifier#CACHE_SIZE}: when
 * full it starts over, which costs the next requests one verification from the token cache each.
 * Not for introspection, whose answers may change before a token expires.
 *
 * <p>Only headers of the plain form {@code Bearer <token>} (the scheme in any case, one space, no
 * space after the token) are remembered. RFC 6750 lets a client pad the header with spaces, and
 * each padding is another header: one valid token sent with 10,000 paddings up to the 8 KiB header
 * limit kept about 80 MB here, whatever the size of the token. A padded header is still admitted,
 * by the verifier's own cache of the token.
 */
public final class AdmittedHeaders {
  private final Clock clock;
  private final ConcurrentHashMap<String, Entry> admitted = new ConcurrentHashMap<>();

  /** A token and the epoch millisecond from which it no longer counts (exp plus leeway). */
  private record Entry(VerifiedToken token, long endsAtMillis) {}

  public AdmittedHeaders(Clock clock) {
    this.clock = clock;
  }

  /** The token of a header admitted before and still valid. */
  public Optional<VerifiedToken> find(String header) {
    Entry entry = admitted.get(header);
    if (entry == null) {
      return Optional.empty();
    }
    if (clock.millis() >= entry.endsAtMillis()) {
      admitted.remove(header, entry);
      return Optional.empty();
    }
    return Optional.of(entry.token());
  }

  /**
   * Remembers that {@code header} was admitted with {@code token}, if it is of the plain form
   * {@code Bearer <token>}.
   */
  public void remember(String header, VerifiedToken token) {
    if (!isPlain(header)) {
      return;
    }
    if (admitted.size() >= TokenVerifier.CACHE_SIZE) {
      admitted.clear();
    }
    admitted.put(
        header, new Entry(token, token.expiresAt().plus(TokenVerifier.LEEWAY).toEpochMilli()));
  }

  /**
   * Whether {@code header} is a six-letter scheme, one space and a token with no space in or after
   * it: what {@link BearerCredentials} admits, without the padding it also allows.
   */
  static boolean isPlain(String header) {
    return header.length() > 7 && header.charAt(6) == ' ' && header.indexOf(' ', 7) < 0;
  }
}
