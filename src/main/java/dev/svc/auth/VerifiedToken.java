package dev.svc.auth;

import java.time.Instant;
import java.util.Set;

/**
 * What svc keeps of an access token it verified: never the token itself.
 *
 * @param subject the token's {@code sub}
 * @param scopes its {@code scope} (space-separated) or {@code scp} (a list) values
 * @param expiresAt its {@code exp}
 */
public record VerifiedToken(String subject, Set<String> scopes, Instant expiresAt) {
  public VerifiedToken {
    scopes = Set.copyOf(scopes);
  }

  /** The principal the request acts for: {@code oauth:<subject>} (one issuer per server). */
  public Principal principal() {
    return Principal.ofSubject(subject);
  }
}
