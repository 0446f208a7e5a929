package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.call.Deadline;
import dev.svc.model.ConnectorKind;
import dev.svc.testing.TestDatabase;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/** The SQL connector against a real PostgreSQL (127.0.0.1:5432). */
class PostgresConnectorIT extends JdbcConnectorContract {
  @RegisterExtension static final TestDatabase DATABASE = TestDatabase.postgres();

  @Override
  ConnectorKind kind() {
    return ConnectorKind.POSTGRES;
  }

  @Override
  ResolvedAdapter adapter(Map<String, String> options) {
    return DATABASE.adapter(options);
  }

  @Override
  String createItems() {
    return "CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(100) NOT NULL, price DOUBLE"
        + " PRECISION, active BOOLEAN, created TIMESTAMPTZ, note TEXT)";
  }

  @Override
  String readOnlyRefusal() {
    return "read-only transaction";
  }

  @Override
  String sleep(int seconds) {
    return "SELECT pg_sleep(" + seconds + ")";
  }

  @Override
  String numbers(long n) {
    return "SELECT g FROM generate_series(1, " + n + ") g";
  }

  @Override
  String numbersFailingPast(long n, long total) {
    return "SELECT CASE WHEN g > "
        + n
        + " THEN g / (g - g) ELSE g END AS g FROM generate_series(1, "
        + total
        + ") g";
  }

  @Override
  String statementQuotingItsValue() {
    return "SELECT CAST({{ inputs.value }} AS INTEGER) AS n";
  }

  @Override
  String messageQuotingThePlaceholder() {
    return "invalid input syntax for type integer: \"{{ inputs.value }}\"";
  }

  @Override
  Optional<String> countLongSleeps() {
    return Optional.of(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND"
            + " query LIKE '%pg_sleep(6' || '00)%' AND pid <> pg_backend_pid()");
  }

  // ---- a tool's session: settings made for one call, in its transaction ---------------------

  private static StatementOptions withSettings(boolean readOnly, String... pairs) {
    List<StatementOptions.SessionSetting> settings = new ArrayList<>();
    for (int i = 0; i < pairs.length; i += 2) {
      settings.add(new StatementOptions.SessionSetting(pairs[i], pairs[i + 1]));
    }
    return new StatementOptions(0, Long.MAX_VALUE, readOnly, settings);
  }

  /** One connection, so that the next call surely gets the connection the last one used. */
  private void onOneConnection() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));
  }

  @Test
  void aCallsSettingsAreSeenByItsStatementAndByNoLaterCall() {
    onOneConnection();
    String read = "SELECT current_setting('app.user_id', true) AS u";

    assertJson(run(read, withSettings(false, "app.user_id", "alice")), "[{\"u\": \"alice\"}]");
    assertJson(run(read, withSettings(true, "app.user_id", "bob")), "[{\"u\": \"bob\"}]");
    assertThat(run(read, Map.of()).get(0).get("u").asString("")).isEmpty();
  }

  @Test
  void aValueIsBoundNeverSpliced() {
    String hostile = "x'); DROP TABLE items; --";
    JsonNode rows =
        run(
            "SELECT current_setting('app.user_id') AS u",
            withSettings(false, "app.user_id", hostile));

    assertThat(rows.get(0).get("u").asString()).isEqualTo(hostile);
    assertThat(run("SELECT count(*) AS n FROM items", Map.of()).get(0).get("n").asLong())
        .isPositive();
  }

  @Test
  void aWriteWithSettingsIsCommitted() {
    run(
        "INSERT INTO items (id, name) VALUES (77, current_setting('app.user_id'))",
        withSettings(false, "app.user_id", "carol"));

    assertJson(run("SELECT name FROM items WHERE id = 77", Map.of()), "[{\"name\": \"carol\"}]");
  }

  @Test
  void aFailedStatementUndoesItsSettingsAndLeavesTheConnectionUsable() {
    onOneConnection();
    assertThatThrownBy(
            () -> run("SELECT 1 / 0 AS n", withSettings(false, "app.user_id", "mallory")))
        .isInstanceOf(StatementFailedException.class)
        .hasMessageContaining("division by zero");

    assertThat(
            run("SELECT current_setting('app.user_id', true) AS u", Map.of())
                .get(0)
                .get("u")
                .asString(""))
        .isEmpty();
  }

  @Test
  void theRoleSettingRunsTheStatementAsThatRoleForThisCallOnly() {
    onOneConnection();
    run(
        "DO $$ BEGIN CREATE ROLE svc_test_reader NOLOGIN; EXCEPTION WHEN duplicate_object THEN"
            + " NULL; END $$",
        Map.of());
    String who = "SELECT current_user AS u";

    assertJson(
        run(who, withSettings(false, "role", "svc_test_reader")), "[{\"u\": \"svc_test_reader\"}]");
    assertThat(run(who, Map.of()).get(0).get("u").asString()).isEqualTo(DATABASE.user());
    assertThatThrownBy(() -> run(who, withSettings(false, "role", "no_such_role_here")))
        .isInstanceOf(StatementFailedException.class)
        .hasMessageContaining("no_such_role_here");
    assertThat(run(who, Map.of()).get(0).get("u").asString()).isEqualTo(DATABASE.user());
  }

  @Test
  void aDeepPageIsReadThroughACursorInBoundedBatches() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("maxResultBuffer", "1M")));

    // read whole, the 300,000 rows before the page would pass pgjdbc's 1 MB buffer
    JsonNode page = run(numbers(1_000_000), window(300_000, 2));

    assertJson(page, "[{\"g\": 300001}, {\"g\": 300002}]");
    assertJson( // a read-only statement's cursor lives in its read-only transaction
        run(numbers(1_000_000), new StatementOptions(300_000, 2, true)),
        "[{\"g\": 300001}, {\"g\": 300002}]");
    assertJson(run(numbers(2), window(0, 1001)), "[{\"g\": 1}, {\"g\": 2}]");
  }

  @Test
  void aFirstPagePastPgjdbcsBufferIsRefusedAtTheCeiling() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("maxResultBuffer", "1M", "max_connections", "1")));
    ResultMemory small = new ResultMemory(4 * MIB, MIB);

    assertThatThrownBy(() ->
            within(
                small,
                "SELECT repeat('x', 5000) AS x FROM generate_series(1, 1001)",
                window(0, 1001)))
        .isInstanceOf(ResultRefusedException.class)
        .hasMessageStartingWith("the result passed svc's ceiling of 1 MiB for one result");
    assertJson(run(numbers(2), window(0, 1001)), "[{\"g\": 1}, {\"g\": 2}]");
  }

  @Test
  void everyColumnTypeMapsToItsJsonForm() {
    run(
        "CREATE TABLE kinds (i4 int4, i8 int8, n numeric(10,2), f8 float8, b bool, t text, ts"
            + " timestamptz, d date, by bytea, j json, jb jsonb)",
        Map.of());
    run(
        "INSERT INTO kinds VALUES (42, 9007199254740993, 12.50, 0.1, true, 'héllo',"
            + " '2024-05-01 10:00:00+02', '2024-05-01', '\\x00ff10', '{\"a\": [1, 2]}',"
            + " '{\"b\": {\"c\": null}}'), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
            + " NULL, NULL)",
        Map.of());

    assertJson(
        run("SELECT * FROM kinds ORDER BY i4 NULLS LAST", Map.of()),
        """
        [{"i4": 42, "i8": 9007199254740993, "n": 12.50, "f8": 0.1, "b": true, "t": "héllo",
          "ts": "2024-05-01T08:00:00Z", "d": "2024-05-01", "by": "AP8Q", "j": {"a": [1, 2]},
          "jb": {"b": {"c": null}}},
         {"i4": null, "i8": null, "n": null, "f8": null, "b": null, "t": null, "ts": null,
          "d": null, "by": null, "j": null, "jb": null}]
        """);
  }

  @Test
  void datesBindAsDatesAndStringsTakeTheTypeOfTheirColumn() {
    assertJson(
        run(
            "SELECT id FROM items WHERE created::date = {{ inputs.day }}",
            values("day", LocalDate.parse("2024-06-01"))),
        "[{\"id\": 2}]");
    assertJson(
        run(
            "SELECT id FROM items WHERE created > {{ inputs.since }} ORDER BY id",
            values("since", "2024-06-15T00:00:00Z")),
        "[{\"id\": 3}]");
  }

  @Test
  void aConnectionKilledByTheServerFailsOneCallAndIsReplaced() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));
    long pid = run("SELECT pg_backend_pid() AS pid", Map.of()).get(0).get("pid").asLong();
    try (Connector admin = Connectors.open(adapter(Map.of()))) {
      admin.execute(
          dev.svc.compile.StatementFixture.sql(
              kind(), "SELECT pg_terminate_backend(CAST({{ inputs.pid }} AS INTEGER))"),
          values("pid", pid),
          Deadline.after(TIMEOUT));
    }

    assertThatThrownBy(() -> run("SELECT 1 AS one", Map.of()))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessageStartingWith(
            "lost the connection to postgres adapter `db` at 127.0.0.1:" + DATABASE.port() + ": ");
    assertJson(run("SELECT 1 AS one", Map.of()), "[{\"one\": 1}]");
    assertThat(run("SELECT pg_backend_pid() AS pid", Map.of()).get(0).get("pid").asLong())
        .isNotEqualTo(pid);
  }

  @Test
  void aWrongPortIsAClearConnectorFailure() {
    Connector wrong =
        Connectors.open(
            DATABASE.adapter("postgresql://" + DATABASE.user() + "@127.0.0.1:1/x", Map.of()));

    assertThatThrownBy(() -> wrong.check(Deadline.after(TIMEOUT)))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage("cannot connect to postgres adapter `db` at 127.0.0.1:1: connection refused");
    wrong.close();
  }

  @Test
  void anUnknownUserIsAnAuthenticationFailure() {
    Connector wrong =
        Connectors.open(
            DATABASE.adapter(
                "postgresql://svc_nobody:secret@127.0.0.1:" + DATABASE.port() + "/x", Map.of()));

    assertThatThrownBy(() -> wrong.check(Deadline.after(TIMEOUT)))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessageStartingWith(
            "cannot connect to postgres adapter `db` at 127.0.0.1:"
                + DATABASE.port()
                + ": authentication failed for user `svc_nobody`")
        .hasMessageNotContaining("secret");
    wrong.close();
  }

  @Test
  void anUnknownHostIsNamed() {
    Connector wrong =
        Connectors.open(DATABASE.adapter("postgresql://u@no-such-host.invalid/x", Map.of()));

    assertThatThrownBy(() -> wrong.check(Deadline.after(TIMEOUT)))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(
            "cannot connect to postgres adapter `db` at no-such-host.invalid:5432: unknown host"
                + " `no-such-host.invalid`");
    wrong.close();
  }

  @Test
  void aMissingRelationIsReportedInPostgresWords() {
    assertThatThrownBy(() -> run("SELECT * FROM itemz", Map.of()))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("relation \"itemz\" does not exist");
  }

  @Test
  void concurrentCallsOfTheOptionalFilterIdiomAllLearnItsUntypedParameter() throws Exception {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "4")));
    String byNote =
        "SELECT id FROM items WHERE ({{ inputs.note }} IS NULL OR note = {{ inputs.note }}) ORDER"
            + " BY id";
    List<Future<JsonNode>> calls = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 100; i++) {
        String note = i % 2 == 0 ? null : "ripe";
        calls.add(threads.submit(() -> run(byNote, values("note", note))));
      }
    }
    for (int i = 0; i < calls.size(); i++) {
      assertJson(
          calls.get(i).get(),
          i % 2 == 0 ? "[{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]" : "[{\"id\": 2}]");
    }
  }

  @Test
  void aDuplicateKeySaysWhichConstraintWithoutTheKeyAnywhereInTheFailure() {
    run("CREATE TABLE cards (card TEXT PRIMARY KEY)", Map.of());
    String insert = "INSERT INTO cards VALUES ({{ inputs.card }})";
    run(insert, values("card", SECRET));

    StatementFailedException failure =
        catchThrowableOfType(
            StatementFailedException.class, () -> run(insert, values("card", SECRET)));

    // the server's DETAIL line, "Key (card)=(…) already exists", is left out of the message, and
    // the driver's exception kept as the cause quotes it no more
    assertThat(failure.getMessage())
        .isEqualTo("duplicate key value violates unique constraint \"cards_pkey\"");
    assertThat(failure.getCause().toString())
        .contains("Key (card)=({{ inputs.card }}) already exists")
        .doesNotContain(SECRET);
  }
}
