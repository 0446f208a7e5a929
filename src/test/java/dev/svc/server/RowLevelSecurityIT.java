package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.KeycloakFixture;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import dev.svc.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Row-level security per call (docs/configuration.md "Row-level security"): PostgreSQL decides
 * which rows a caller sees, from the subject of the token Keycloak issued it. Two callers (two
 * clients of the realm, each its own subject) call one tool and each gets only their own notes;
 * inputs cannot claim to be someone else.
 */
class RowLevelSecurityIT {
  @RegisterExtension static final TestDatabase POSTGRES = TestDatabase.postgres();

  private static final String READER = "svc_it_notes_reader";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir static Path dir;
  static KeycloakFixture keycloak;
  static Instance instance;
  static String base;

  @BeforeAll
  static void start() throws Exception {
    keycloak = KeycloakFixture.get();
    Properties properties = new Properties();
    properties.setProperty("user", POSTGRES.user());
    try (Connection db =
            DriverManager.getConnection(
                "jdbc:postgresql://"
                    + POSTGRES.host()
                    + ":"
                    + POSTGRES.port()
                    + "/"
                    + POSTGRES.name(),
                properties);
        Statement sql = db.createStatement()) {
      sql.execute(
          "DO $$ BEGIN CREATE ROLE "
              + READER
              + " NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$");
      sql.execute("CREATE TABLE notes (id serial PRIMARY KEY, owner text NOT NULL, body text)");
      sql.execute("ALTER TABLE notes ENABLE ROW LEVEL SECURITY");
      sql.execute("GRANT SELECT ON notes TO " + READER);
      sql.execute(
          "CREATE POLICY own_notes ON notes FOR SELECT TO "
              + READER
              + " USING (owner = current_setting('app.user_id', true))");
      sql.execute(
          "INSERT INTO notes (owner, body) VALUES ('svc-client', 'alpha'), ('svc-client',"
              + " 'beta'), ('second-client', 'gamma')");
    }
    String project =
        """
        == .svc
        name: notes
        server:
          auth:
            plugin: oauth
            policy:
              issuer: "{{ env.OIDC_ISSUER }}"
              audience: https://svc.test/mcp
        == app/adapters/notes.terse
        connector: postgres
        connection_string: "{{ env.NOTES_DB }}"
        == app/tools/my_notes/config.terse
        description: The caller's own notes.
        use: notes
        statement: SELECT body FROM notes ORDER BY id
        cache: {enabled: true, ttl: 60}
        session:
          settings:
            app.user_id: "{{ auth.claims.azp }}"
          role: svc_it_notes_reader
        == app/tools/notes_of/config.terse
        description: Notes of an owner the caller names, as far as the policy lets them see.
        use: notes
        statement: SELECT body FROM notes WHERE owner = {{ inputs.owner }} ORDER BY id
        inputs:
          owner: {type: string}
        session:
          settings:
            app.user_id: "{{ auth.claims.azp }}"
          role: svc_it_notes_reader
        == app/tools/by_tenant/config.terse
        description: Needs a claim these tokens do not carry.
        use: notes
        statement: SELECT body FROM notes ORDER BY id
        session:
          settings:
            app.tenant: "{{ auth.claims.tenant }}"
          role: svc_it_notes_reader
        == app/tools/all_notes/config.terse
        description: "Every note, as the adapter's own user (no session): the policy does not apply."
        use: notes
        statement: SELECT body FROM notes ORDER BY id
        """;
    instance =
        RunningProject.start(
            dir,
            project,
            Map.of("OIDC_ISSUER", keycloak.issuer(), "NOTES_DB", POSTGRES.connectionString()));
    base = instance.baseUrl();
  }

  @AfterAll
  static void stop() {
    if (instance != null) {
      instance.close();
    }
  }

  private static StatelessMcpClient as(String client) {
    return new StatelessMcpClient(base)
        .bearer(keycloak.token(client, client.replace("-client", "-secret")));
  }

  /** The {@code body} of each row, or the error text. */
  private static List<String> bodies(StatelessMcpClient caller, String tool, String arguments) {
    JsonNode reply =
        JSON.readTree(
            caller
                .post("tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}")
                .body());
    JsonNode result = reply.path("result");
    if (result.path("isError").asBoolean()) {
      return List.of("error: " + result.path("content").get(0).path("text").asString());
    }
    List<String> bodies = new ArrayList<>();
    result
        .path("structuredContent")
        .path("rows")
        .forEach(r -> bodies.add(r.path("body").asString()));
    return bodies;
  }

  @Test
  void eachCallerSeesOnlyTheirOwnRows() {
    assertThat(bodies(as("svc-client"), "my_notes", "{}")).containsExactly("alpha", "beta");
    assertThat(bodies(as("second-client"), "my_notes", "{}")).containsExactly("gamma");
    assertThat(bodies(as("svc-client"), "my_notes", "{}"))
        .as("the cached result is the caller's own")
        .containsExactly("alpha", "beta");
  }

  @Test
  void anInputCannotClaimAnotherCallersRows() {
    assertThat(bodies(as("svc-client"), "notes_of", "{\"owner\": \"second-client\"}")).isEmpty();
    assertThat(bodies(as("second-client"), "notes_of", "{\"owner\": \"second-client\"}"))
        .containsExactly("gamma");
  }

  @Test
  void aClaimTheTokenLacksRefusesTheCall() {
    assertThat(bodies(as("svc-client"), "by_tenant", "{}"))
        .containsExactly("error: the token carries no claim `tenant`");
  }

  @Test
  void withoutASessionThePolicyDoesNotApplyToTheAdaptersOwnUser() {
    assertThat(bodies(as("second-client"), "all_notes", "{}"))
        .containsExactly("alpha", "beta", "gamma");
  }
}
