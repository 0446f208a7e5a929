package dev.svc.call;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What svc keeps of an access token it verified: never the token itself.
 *
 * @param subject the token's {@code sub}
 * @param scopes its {@code scope} (space-separated) or {@code scp} (a list) values
 * @param expiresAt its {@code exp}
 * @param claims every claim of its payload as JSON values (strings, numbers, booleans, lists, maps,
 *     null; times in epoch seconds), read-only all the way down
 */
public record VerifiedToken(
    String subject, Set<String> scopes, Instant expiresAt, Map<String, Object> claims) {
  private static final String OAUTH = "oauth:";

  public VerifiedToken {
    scopes = Set.copyOf(scopes);
    claims = frozenMap(claims);
  }

  /** A token known only by subject and scopes: its claims are {@code sub} alone. */
  public VerifiedToken(String subject, Set<String> scopes, Instant expiresAt) {
    this(subject, scopes, expiresAt, Map.of("sub", subject));
  }

  /** The id of the principal the request acts for: {@code oauth:<subject>} (one issuer). */
  public String principalId() {
    return OAUTH + subject;
  }

  /**
   * The claim at {@code path}: a top-level claim, or with dots a member of nested objects ({@code
   * realm_access.roles}). Empty when the token lacks it or it is JSON {@code null}.
   */
  public Optional<Object> claim(String path) {
    Object value = claims;
    for (String step : path.split("\\.", -1)) {
      if (!(value instanceof Map<?, ?> object)) {
        return Optional.empty();
      }
      value = object.get(step);
    }
    return Optional.ofNullable(value);
  }

  private static Map<String, Object> frozenMap(Map<String, ?> map) {
    Map<String, Object> copy = new LinkedHashMap<>();
    map.forEach((key, value) -> copy.put(key, frozen(value)));
    return Collections.unmodifiableMap(copy);
  }

  @SuppressWarnings("unchecked")
  private static Object frozen(Object value) {
    return switch (value) {
      case null -> null;
      case Map<?, ?> map -> frozenMap((Map<String, ?>) map);
      case List<?> list -> {
        List<Object> copy = new ArrayList<>(list.size());
        list.forEach(item -> copy.add(frozen(item)));
        yield Collections.unmodifiableList(copy);
      }
      default -> value;
    };
  }
}
