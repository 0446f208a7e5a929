package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.NamedValue;
import dev.svc.definition.SessionDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.model.ConnectorKind;
import dev.svc.model.DatabaseSession;
import dev.svc.model.Execution;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles a tool's {@code session}: PostgreSQL settings and a role made for each call from literal
 * text or the caller's verified claims (docs/auth.md "Row-level security"). Every value is later
 * bound as a parameter of {@code set_config}; names are checked here, so that only a setting name
 * (never a value) reaches the statement text, and roles are limited to an allow-list.
 */
final class SessionCompiler {
  /** {@code {{ auth.claims.<name> }}}, the name a dotted path into nested objects. */
  static final Pattern CLAIM =
      Pattern.compile(
          "\\{\\{\\s*auth\\.claims\\.([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*)\\s*}}");

  /** A PostgreSQL setting: {@code search_path}, or a custom one such as {@code app.user_id}. */
  private static final Pattern SETTING =
      Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*(\\.[A-Za-z_][A-Za-z0-9_$]*)?");

  /** A role name as an unquoted PostgreSQL identifier. */
  private static final Pattern ROLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");

  /** Settings that are roles in disguise: set through {@code role} and its allow-list only. */
  private static final Set<String> ROLE_SETTINGS = Set.of("role", "session_authorization");

  private final Diagnostics diagnostics;

  SessionCompiler(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /**
   * The compiled block; empty when absent or wrong (problems reported).
   *
   * @param execution the tool's compiled backend, when it compiled
   * @param verifiedToken whether every call of the tool carries a verified token (its auth is
   *     {@code jwt}, or {@code server.auth} is on), so claims have values
   */
  Optional<DatabaseSession> compile(
      Optional<SessionDefinition> written, Optional<Execution> execution, boolean verifiedToken) {
    if (written.isEmpty()) {
      return Optional.empty();
    }
    SessionDefinition session = written.get();
    int errorsBefore = diagnostics.errorCount();
    switch (execution.orElse(null)) {
      case Execution.Handler handler ->
          diagnostics.error(
              "invalid-session",
              session.origin(),
              "`session` applies to a statement, and this tool runs a handler",
              "remove `session`, or run the tool as `use: <adapter>` + `statement`");
      case Execution.OnAdapter on when on.connector() != ConnectorKind.POSTGRES ->
          diagnostics.error(
              "invalid-session",
              session.origin(),
              "`session` needs PostgreSQL (it uses set_config), and adapter `"
                  + on.adapter()
                  + "` is "
                  + on.connector().name().toLowerCase(Locale.ROOT),
              "remove `session`, or run the tool on a postgres adapter");
      case null, default -> {}
    }
    List<DatabaseSession.Setting> settings = new ArrayList<>();
    for (NamedValue setting : session.settings()) {
      String name = setting.key().value();
      if (ROLE_SETTINGS.contains(name.toLowerCase(Locale.ROOT))) {
        diagnostics.error(
            "invalid-session",
            setting.key().origin(),
            "`" + name + "` cannot be a setting: a role is chosen with `role`",
            "write `role:` beside `settings:`, with the roles it may take in `allowed_roles`");
        continue;
      }
      if (!SETTING.matcher(name).matches()) {
        diagnostics.error(
            "invalid-session",
            setting.key().origin(),
            "`" + name + "` is not a PostgreSQL setting name",
            "use a custom setting with one dot, e.g. `app.user_id`, and read it in a policy with"
                + " current_setting('app.user_id', true)");
        continue;
      }
      value(setting.value(), verifiedToken)
          .ifPresent(v -> settings.add(new DatabaseSession.Setting(name, v)));
    }
    Optional<DatabaseSession.Value> role = session.role().flatMap(r -> value(r, verifiedToken));
    List<String> allowed = new ArrayList<>();
    session
        .allowedRoles()
        .ifPresent(list -> {
          for (Located<String> one : list.value()) {
            if (!ROLE.matcher(one.value()).matches()) {
              diagnostics.error(
                  "invalid-session",
                  one.origin(),
                  "`" + one.value() + "` is not a role name svc accepts",
                  "use letters, digits, `_` and `$`, starting with a letter or `_`");
            } else {
              allowed.add(one.value());
            }
          }
        });
    checkRole(session, role, allowed);
    if (session.role().isEmpty() && session.settings().isEmpty()) {
      diagnostics.warning(
          "empty-session",
          session.origin(),
          "`session` sets nothing",
          "add `settings:` (e.g. `app.user_id: \"{{ auth.claims.sub }}\"`) or `role:`, or remove"
              + " it");
    }
    if (diagnostics.errorCount() > errorsBefore) {
      return Optional.empty();
    }
    return Optional.of(new DatabaseSession(settings, role, allowed));
  }

  private void checkRole(
      SessionDefinition session, Optional<DatabaseSession.Value> role, List<String> allowed) {
    Origin at = session.role().map(Located::origin).orElse(session.origin());
    switch (role.orElse(null)) {
      case DatabaseSession.Value.Claim claim when session.allowedRoles().isEmpty() ->
          diagnostics.error(
              "missing-allowed-roles",
              at,
              "`role` comes from claim `" + claim.name() + "`, but `allowed_roles` is not set",
              "list the roles a caller may act as, e.g. `allowed_roles: [reader, editor]`: a"
                  + " token naming any other role is refused");
      case DatabaseSession.Value.Literal literal -> {
        if (!ROLE.matcher(literal.text()).matches()) {
          diagnostics.error(
              "invalid-session",
              at,
              "`" + literal.text() + "` is not a role name svc accepts",
              "use letters, digits, `_` and `$`, starting with a letter or `_`");
        } else if (session.allowedRoles().isPresent() && !allowed.contains(literal.text())) {
          diagnostics.error(
              "invalid-session",
              at,
              "role `" + literal.text() + "` is not in `allowed_roles`",
              "add it to `allowed_roles`, or drop `allowed_roles` (a literal role needs none)");
        }
      }
      case null -> {
        if (session.allowedRoles().isPresent()) {
          diagnostics.warning(
              "unused-allowed-roles",
              session.allowedRoles().get().origin(),
              "`allowed_roles` has no effect without `role`",
              "add `role: \"{{ auth.claims.<name> }}\"`, or remove `allowed_roles`");
        }
      }
      default -> {}
    }
  }

  /** A value: literal text, or exactly one claim placeholder. */
  private Optional<DatabaseSession.Value> value(Located<String> written, boolean verifiedToken) {
    String text = written.value();
    Matcher claim = CLAIM.matcher(text.strip());
    if (claim.matches()) {
      if (!verifiedToken) {
        diagnostics.error(
            "claims-without-token",
            written.origin(),
            "the session uses `"
                + text.strip()
                + "`, but no access token is verified for this tool",
            "add `auth: {plugin: jwt, policy: {issuer: …, audience: …}}` to the tool, or turn on"
                + " `server.auth` in .svc");
        return Optional.empty();
      }
      return Optional.of(new DatabaseSession.Value.Claim(claim.group(1)));
    }
    if (text.contains("{{")) {
      String hint =
          text.contains("inputs.")
              ? "inputs are chosen by the caller, so they cannot set the session; bind them in the"
                  + " statement instead"
              : "write literal text, or exactly one `{{ auth.claims.<name> }}`";
      diagnostics.error(
          "invalid-session",
          written.origin(),
          "`" + text + "` is neither literal text nor one `{{ auth.claims.<name> }}`",
          hint);
      return Optional.empty();
    }
    return Optional.of(new DatabaseSession.Value.Literal(text));
  }
}
