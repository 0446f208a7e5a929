package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.svc.model.DatabaseSession;
import dev.svc.model.DatabaseSession.Setting;
import dev.svc.model.DatabaseSession.Value.Claim;
import dev.svc.model.DatabaseSession.Value.Literal;
import dev.svc.model.Execution;
import dev.svc.model.Model;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A tool's {@code session}: what it compiles to, and each mistake's report. */
class SessionDiagnosticsTest {
  @TempDir Path dir;

  static final String ADAPTERS =
      """
      == app/adapters/notes.terse
      connector: postgres
      connection_string: postgresql://svc@localhost:5432/notes
      == app/adapters/local.terse
      connector: sqlite
      connection_string: "file:./local.db"
      """;

  static final String PROTECTED =
      """
      == .svc
      name: notes
      server:
        auth:
          plugin: oauth
          policy:
            issuer: https://id.example.com/realms/notes
            audience: https://notes.example.com/mcp
      """
          + ADAPTERS;

  static final String OPEN = "== .svc\nname: notes\n" + ADAPTERS;

  static String tool(String session) {
    return "== app/tools/t/config.terse\n"
        + "description: My notes.\n"
        + "use: notes\n"
        + "statement: SELECT id, body FROM notes ORDER BY id\n"
        + session;
  }

  @Test
  void settingsAndARoleFromClaimsCompileToTheirValues() {
    Model model =
        ProjectFixture.model(
            dir,
            PROTECTED
                + tool(
                    """
                    session:
                      settings:
                        app.user_id: "{{ auth.claims.sub }}"
                        app.tenant: "{{auth.claims.org.tenant}}"
                        app.source: mcp
                      role: "{{ auth.claims.db_role }}"
                      allowed_roles: [notes_reader, notes_admin]
                    """));
    Execution.OnAdapter on = (Execution.OnAdapter) model.tool("t").orElseThrow().execution();

    assertThat(on.session())
        .contains(
            new DatabaseSession(
                List.of(
                    new Setting("app.user_id", new Claim("sub")),
                    new Setting("app.tenant", new Claim("org.tenant")),
                    new Setting("app.source", new Literal("mcp"))),
                Optional.of(new Claim("db_role")),
                List.of("notes_reader", "notes_admin")));
  }

  @Test
  void aLiteralRoleNeedsNoAllowListAndNoToken() {
    Model model = ProjectFixture.model(dir, OPEN + tool("session: {role: notes_reader}\n"));
    Execution.OnAdapter on = (Execution.OnAdapter) model.tool("t").orElseThrow().execution();

    assertThat(on.session())
        .contains(
            new DatabaseSession(List.of(), Optional.of(new Literal("notes_reader")), List.of()));
  }

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "claims without a verified token are an error",
            OPEN + tool("session:\n  settings:\n    app.user_id: \"{{ auth.claims.sub }}\"\n"),
            """
            app/tools/t/config.terse:6:18: error[claims-without-token]: the session uses `{{ auth.claims.sub }}`, but no access token is verified for this tool
              hint: add `auth: {plugin: jwt, policy: {issuer: …, audience: …}}` to the tool, or turn on `server.auth` in .svc
            1 error, 0 warnings
            """),
        argumentSet(
            "a handler has no statement to set a session for",
            PROTECTED
                + "== app/tools/t/config.terse\ndescription: D.\nhandler: handler.ts\n"
                + "session: {settings: {app.user_id: x}}\n"
                + "== app/tools/t/handler.ts\nexport default () => 1;\n",
            """
            app/tools/t/config.terse:3:10: error[invalid-session]: `session` applies to a statement, and this tool runs a handler
              hint: remove `session`, or run the tool as `use: <adapter>` + `statement`
            1 error, 0 warnings
            """),
        argumentSet(
            "a database other than PostgreSQL is an error",
            PROTECTED
                + "== app/tools/t/config.terse\ndescription: D.\nuse: local\n"
                + "statement: SELECT 1 AS one\nsession: {settings: {app.user_id: x}}\n",
            """
            app/tools/t/config.terse:4:10: error[invalid-session]: `session` needs PostgreSQL (it uses set_config), and adapter `local` is sqlite
              hint: remove `session`, or run the tool on a postgres adapter
            1 error, 0 warnings
            """),
        argumentSet(
            "a role from a claim needs an allow-list",
            PROTECTED + tool("session:\n  role: \"{{ auth.claims.db_role }}\"\n"),
            """
            app/tools/t/config.terse:5:9: error[missing-allowed-roles]: `role` comes from claim `db_role`, but `allowed_roles` is not set
              hint: list the roles a caller may act as, e.g. `allowed_roles: [reader, editor]`: a token naming any other role is refused
            1 error, 0 warnings
            """),
        argumentSet(
            "a literal role outside the allow-list is an error",
            PROTECTED + tool("session: {role: admin, allowed_roles: [reader]}\n"),
            """
            app/tools/t/config.terse:4:17: error[invalid-session]: role `admin` is not in `allowed_roles`
              hint: add it to `allowed_roles`, or drop `allowed_roles` (a literal role needs none)
            1 error, 0 warnings
            """),
        argumentSet(
            "a role is not a setting",
            PROTECTED + tool("session:\n  settings:\n    role: \"{{ auth.claims.db_role }}\"\n"),
            """
            app/tools/t/config.terse:6:5: error[invalid-session]: `role` cannot be a setting: a role is chosen with `role`
              hint: write `role:` beside `settings:`, with the roles it may take in `allowed_roles`
            1 error, 0 warnings
            """),
        argumentSet(
            "a setting name that is not one is an error",
            PROTECTED + tool("session:\n  settings:\n    \"app.user id\": x\n"),
            """
            app/tools/t/config.terse:6:5: error[invalid-session]: `app.user id` is not a PostgreSQL setting name
              hint: use a custom setting with one dot, e.g. `app.user_id`, and read it in a policy with current_setting('app.user_id', true)
            1 error, 0 warnings
            """),
        argumentSet(
            "an input cannot set the session",
            PROTECTED
                + tool(
                    "inputs: {who: {type: string}}\n"
                        + "session:\n  settings:\n    app.user_id: \"{{ inputs.who }}\"\n"),
            """
            app/tools/t/config.terse:7:18: error[invalid-session]: `{{ inputs.who }}` is neither literal text nor one `{{ auth.claims.<name> }}`
              hint: inputs are chosen by the caller, so they cannot set the session; bind them in the statement instead
            1 error, 0 warnings
            """),
        argumentSet(
            "text around a claim is an error",
            PROTECTED
                + tool("session:\n  settings:\n    app.tenant: \"t-{{ auth.claims.tid }}\"\n"),
            """
            app/tools/t/config.terse:6:17: error[invalid-session]: `t-{{ auth.claims.tid }}` is neither literal text nor one `{{ auth.claims.<name> }}`
              hint: write literal text, or exactly one `{{ auth.claims.<name> }}`
            1 error, 0 warnings
            """),
        argumentSet(
            "a role name that is not an identifier is an error",
            PROTECTED
                + tool(
                    "session:\n  role: \"{{ auth.claims.r }}\"\n  allowed_roles: [reader, \"x; DROP\"]\n"),
            """
            app/tools/t/config.terse:6:27: error[invalid-session]: `x; DROP` is not a role name svc accepts
              hint: use letters, digits, `_` and `$`, starting with a letter or `_`
            1 error, 0 warnings
            """),
        argumentSet(
            "an empty session and an unused allow-list are warnings",
            PROTECTED + tool("session: {allowed_roles: [reader]}\n"),
            """
            app/tools/t/config.terse:4:10: warning[empty-session]: `session` sets nothing
              hint: add `settings:` (e.g. `app.user_id: "{{ auth.claims.sub }}"`) or `role:`, or remove it
            app/tools/t/config.terse:4:26: warning[unused-allowed-roles]: `allowed_roles` has no effect without `role`
              hint: add `role: "{{ auth.claims.<name> }}"`, or remove `allowed_roles`
            0 errors, 2 warnings
            """));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }
}
