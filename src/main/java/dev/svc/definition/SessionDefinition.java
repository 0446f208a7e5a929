package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Optional;

/**
 * A tool's {@code session} block: PostgreSQL settings made for one call, in the transaction of its
 * statement, so that row-level security policies see who calls.
 *
 * @param origin where {@code session:} was written
 * @param settings {@code settings}: setting name → a literal or {@code {{ auth.claims.<name> }}}
 * @param role {@code role}: the role the statement runs as, a literal or a claim placeholder
 * @param allowedRoles {@code allowed_roles}: the roles {@code role} may take
 */
public record SessionDefinition(
    Origin origin,
    List<NamedValue> settings,
    Optional<Located<String>> role,
    Optional<Located<List<Located<String>>>> allowedRoles) {
  public SessionDefinition {
    settings = List.copyOf(settings);
  }
}
