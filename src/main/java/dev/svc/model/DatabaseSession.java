package dev.svc.model;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * A tool's {@code session}: what is set in the database for one call, in the transaction of its
 * statement and undone when it ends (PostgreSQL {@code set_config(name, value, true)}, which is
 * also how the role is set). Values come from the project or from the caller's verified token,
 * never from the call's inputs, and are bound as parameters.
 *
 * @param settings in the order written
 * @param role the role the statement runs as
 * @param allowedRoles the roles {@code role} may take; a role outside them refuses the call
 */
public record DatabaseSession(
    List<Setting> settings, Optional<Value> role, List<String> allowedRoles) {
  public DatabaseSession {
    settings = List.copyOf(settings);
    allowedRoles = List.copyOf(allowedRoles);
  }

  /** One setting: a name such as {@code app.user_id} and its value. */
  public record Setting(String name, Value value) {}

  /** A value: literal text, or a claim of the caller's verified token. */
  public sealed interface Value {
    /** Text written in the project. */
    record Literal(String text) implements Value {}

    /**
     * {@code {{ auth.claims.<name> }}}.
     *
     * @param name the claim, a dotted path into nested objects ({@code realm_access.roles})
     */
    record Claim(String name) implements Value {}
  }

  /** The claims its values come from, in order, each once. */
  public List<String> claimNames() {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    settings.forEach(s -> {
      if (s.value() instanceof Value.Claim claim) {
        names.add(claim.name());
      }
    });
    role.ifPresent(r -> {
      if (r instanceof Value.Claim claim) {
        names.add(claim.name());
      }
    });
    return List.copyOf(names);
  }
}
