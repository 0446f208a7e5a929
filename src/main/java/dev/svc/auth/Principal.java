package dev.svc.auth;

import dev.svc.call.Headers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * Who a request acts for, as far as ownership goes: an A2A task belongs to the principal that
 * started it, and other principals cannot see it. The id never holds a secret: credentials are
 * reduced to their SHA-256, so a store that keeps ids (in memory, or shared in a database) holds
 * nothing a caller could present.
 *
 * <p>With {@code server.auth} on, a request's principal is the verified token's subject ({@link
 * #ofSubject}: {@code oauth:<sub>}; one issuer per server, so the subject alone is unique), and
 * every request has one. Without it, {@link #fromCredentials} decides it from the credentials the
 * request carries, unchecked. Everything downstream only compares ids.
 *
 * @param id stable and comparable: {@code anonymous}, {@code oauth:<subject>}, or {@code <kind>:<64
 *     hex digits>} where kind says which credentials the request carried ({@code key}, {@code
 *     bearer}, {@code authorization}, {@code credentials} for an {@code Authorization} header and
 *     an API key together)
 */
public record Principal(String id) {
  /** Every caller without credentials: they share one principal, so they share their tasks. */
  public static final Principal ANONYMOUS = new Principal("anonymous");

  private static final int LABEL_HEX_DIGITS = 12;
  private static final String OAUTH = "oauth:";

  public Principal {
    if (id.isBlank()) {
      throw new IllegalArgumentException("a principal id must not be blank");
    }
  }

  /** The principal of a verified access token: {@code oauth:<subject>}. */
  public static Principal ofSubject(String subject) {
    return new Principal(OAUTH + subject);
  }

  public boolean isAnonymous() {
    return equals(ANONYMOUS);
  }

  /**
   * A short form for logs and audit lines: the kind and the first 12 hex digits (for an API key
   * alone, {@code key:<12 hex>}, the same label the {@code api_key} auth plugin gives the key); a
   * subject in full.
   */
  public String label() {
    if (id.startsWith(OAUTH)) {
      return id;
    }
    int colon = id.indexOf(':');
    return colon < 0 || id.length() <= colon + 1 + LABEL_HEX_DIGITS
        ? id
        : id.substring(0, colon + 1 + LABEL_HEX_DIGITS);
  }

  /**
   * The principal of a request from the credentials it carries: its {@code Authorization} header
   * and its {@code X-API-Key} header. A request with neither (or only blank ones) is {@link
   * #ANONYMOUS}. The values are not checked here: a request that carries a key nobody configured
   * simply is a principal that owns nothing else.
   */
  public static Principal fromCredentials(Headers headers) {
    Optional<String> authorization =
        headers.first("authorization").map(String::strip).filter(v -> !v.isEmpty());
    Optional<String> key =
        headers.first(ApiKeyPlugin.HEADER).map(String::strip).filter(v -> !v.isEmpty());
    if (authorization.isEmpty() && key.isEmpty()) {
      return ANONYMOUS;
    }
    if (authorization.isEmpty()) {
      return hashed("key", key.get());
    }
    String normalised = normalisedAuthorization(authorization.get());
    if (key.isPresent()) {
      // header values cannot hold a line break, so the pair is unambiguous
      return hashed("credentials", normalised + "\n" + key.get());
    }
    String bearer = "bearer ";
    return normalised.startsWith(bearer)
        ? hashed("bearer", normalised.substring(bearer.length()))
        : hashed("authorization", normalised);
  }

  /** The scheme in lower case (schemes are case-insensitive), one space, the credentials. */
  private static String normalisedAuthorization(String value) {
    int space = value.indexOf(' ');
    if (space < 0) {
      return value;
    }
    return value.substring(0, space).toLowerCase(Locale.ROOT)
        + " "
        + value.substring(space + 1).strip();
  }

  private static Principal hashed(String kind, String secret) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
      return new Principal(kind + ":" + HexFormat.of().formatHex(hash));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
