package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.call.Deadline;
import dev.svc.compile.StatementFixture;
import dev.svc.model.ConnectorKind;
import dev.svc.testing.TestDatabase;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/** The SQL connector against a real MariaDB or MySQL (127.0.0.1:3306) through Connector/J. */
class MysqlConnectorIT extends JdbcConnectorContract {
  @RegisterExtension static final TestDatabase DATABASE = TestDatabase.mysql();

  @Override
  ConnectorKind kind() {
    return ConnectorKind.MYSQL;
  }

  @Override
  ResolvedAdapter adapter(Map<String, String> options) {
    return DATABASE.adapter(DATABASE.connectionString() + "?loc=UTC&charset=utf8mb4", options);
  }

  @Override
  String createItems() {
    return "CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(100) NOT NULL, price DOUBLE,"
        + " active BOOLEAN, created DATETIME, note TEXT)";
  }

  @Override
  String readOnlyRefusal() {
    return "READ ONLY transaction";
  }

  @Override
  String sleep(int seconds) {
    return "SELECT SLEEP(" + seconds + ")";
  }

  @Test
  void theServerStopsAtTheWindowSoItsConnectionIsKept() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));
    long first = connectionId();

    assertThat(run(numbersFailingPast(1500, 1_000_000), window(0, 1001))).hasSize(1001);
    assertThat(
            run("SELECT @@SESSION.sql_select_limit AS l", window(0, 1001)).get(0).get("l").asLong())
        .isEqualTo(1001);
    assertThat(connectionId()).isEqualTo(first); // nothing was left to abandon

    // Connector/J limits statements that start with S only: the rest of a WITH query's rows is
    // not read, its connection is closed instead
    assertThat(run("WITH s AS (SELECT g FROM numbers) SELECT g FROM s", window(0, 5))).hasSize(5);
    assertThat(connectionId()).isNotEqualTo(first);
  }

  @Test
  void aRowPastTheCeilingIsStoppedOnTheSocketEvenWhenThePageStepsOverIt() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));
    long first = connectionId();
    ResultMemory small = new ResultMemory(4 * MIB, MIB);
    // Connector/J reads a row whole, also one the page skips: three values of 600 KB, 1.8 MB
    String wideThenNarrow =
        "SELECT REPEAT('x', 600000) AS a, REPEAT('y', 600000) AS b, REPEAT('z', 600000) AS c"
            + " UNION ALL SELECT 'a', 'b', 'c'";

    assertThatThrownBy(() -> within(small, wideThenNarrow, window(1, 1)))
        .isInstanceOf(ResultRefusedException.class)
        .hasMessageStartingWith("the result passed svc's ceiling of 1 MiB for one result");
    assertThat(small.reservedBytes()).isZero();
    assertThat(connectionId())
        .as("the connection went with the rest of the row")
        .isNotEqualTo(first);
    assertJson(within(small, "SELECT 'a' AS a", window(0, 1)), "[{\"a\": \"a\"}]");
  }

  @Test
  void theSocketCountsEachRowSoADeepPageOfNarrowRowsIsServed() {
    ResultMemory small = new ResultMemory(4 * MIB, MIB);
    // 40 rows of 100 KB: 4 MB on the wire before the page, each row well under the ceiling
    String rows =
        "WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 41)"
            + " SELECT i, REPEAT('x', 100000) AS pad FROM n";

    JsonNode page = within(small, rows, window(40, 1));

    assertThat(page).hasSize(1);
    assertThat(page.get(0).get("i").asInt()).isEqualTo(41);
  }

  private long connectionId() {
    return run("SELECT CONNECTION_ID() AS id", Map.of()).get(0).get("id").asLong();
  }

  /** Whether this class's database has its table of a million numbers yet. */
  private static boolean numbersMade;

  @Override
  String numbers(long n) {
    makeNumbers();
    return "SELECT g FROM numbers WHERE g <= " + n + " ORDER BY g";
  }

  @Override
  String numbersFailingPast(long n, long total) {
    makeNumbers();
    // a correlated subquery of two rows: error 1242 for each row it is evaluated on (MariaDB
    // answers an invalid regular expression or bad JSON with NULL and a warning, not an error)
    return "SELECT CASE WHEN g > "
        + n
        + " THEN (SELECT g UNION ALL SELECT g) ELSE g END AS g FROM numbers WHERE numbers.g <= "
        + total
        + " ORDER BY numbers.g";
  }

  private void makeNumbers() {
    if (numbersMade) {
      return;
    }
    String digits =
        "(SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4"
            + " UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION"
            + " ALL SELECT 9)";
    run("CREATE TABLE numbers (g INT PRIMARY KEY)", Map.of());
    run(
        "INSERT INTO numbers (g) SELECT 1 + a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d"
            + " + 100000 * h.d FROM "
            + String.join(
                " CROSS JOIN ",
                digits + " a",
                digits + " b",
                digits + " c",
                digits + " e",
                digits + " f",
                digits + " h"),
        Map.of());
    numbersMade = true;
  }

  @Override
  String statementQuotingItsValue() {
    return "INSERT INTO items (id, name) VALUES ({{ inputs.value }}, 'x')";
  }

  @Override
  String messageQuotingThePlaceholder() {
    return "Incorrect integer value: '{{ inputs.value }}' for column";
  }

  @Override
  Optional<String> countLongSleeps() {
    return Optional.of(
        "SELECT count(*) AS n FROM information_schema.processlist WHERE db = DATABASE() AND"
            + " info LIKE CONCAT('%SLEEP(6', '00)%') AND id <> CONNECTION_ID()");
  }

  @Test
  void everyColumnTypeMapsToItsJsonForm() {
    run(
        "CREATE TABLE kinds (i INT, bi BIGINT, de DECIMAL(10,2), dbl DOUBLE, flag TINYINT(1), b"
            + " BOOLEAN, s VARCHAR(50), dt DATETIME, d DATE, bl BLOB, j JSON)",
        Map.of());
    run(
        "INSERT INTO kinds VALUES (42, 9007199254740993, 12.50, 0.1, 1, FALSE, 'héllo',"
            + " '2024-05-01 10:00:00', '2024-05-01', x'00ff10', '{\"a\": [1, 2]}'), (NULL, NULL,"
            + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
        Map.of());

    assertJson(
        run("SELECT * FROM kinds ORDER BY i IS NULL", Map.of()),
        """
        [{"i": 42, "bi": 9007199254740993, "de": 12.50, "dbl": 0.1, "flag": true, "b": false,
          "s": "héllo", "dt": "2024-05-01T10:00:00", "d": "2024-05-01", "bl": "AP8Q",
          "j": %s},
         {"i": null, "bi": null, "de": null, "dbl": null, "flag": null, "b": null, "s": null,
          "dt": null, "d": null, "bl": null, "j": null}]
        """
            .formatted(jsonColumn("{\"a\": [1, 2]}")));
  }

  /** MariaDB's JSON is LONGTEXT on the wire, so it arrives as text; MySQL's is nested. */
  private String jsonColumn(String json) {
    String version = run("SELECT VERSION() AS v", Map.of()).get(0).get("v").asString();
    return version.contains("MariaDB")
        ? tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(json)
        : json;
  }

  @Test
  void datesBindAsDates() {
    assertJson(
        run(
            "SELECT id FROM items WHERE DATE(created) = {{ inputs.day }}",
            values("day", LocalDate.parse("2024-06-01"))),
        "[{\"id\": 2}]");
  }

  @Test
  void aConnectionKilledByTheServerFailsOneCallAndIsReplaced() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));
    long id = run("SELECT CONNECTION_ID() AS id", Map.of()).get(0).get("id").asLong();
    try (Connector admin = Connectors.open(adapter(Map.of()))) {
      admin.execute(
          dev.svc.compile.StatementFixture.sql(kind(), "KILL " + id),
          Map.of(),
          Deadline.after(TIMEOUT));
    }

    assertThatThrownBy(() -> run("SELECT 1 AS one", Map.of()))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessageStartingWith(
            "lost the connection to mysql adapter `db` at 127.0.0.1:" + DATABASE.port() + ": ");
    assertJson(run("SELECT 1 AS one", Map.of()), "[{\"one\": 1}]");
    assertThat(run("SELECT CONNECTION_ID() AS id", Map.of()).get(0).get("id").asLong())
        .isNotEqualTo(id);
  }

  @Test
  void theUrlFormOfTheConnectionStringConnectsLikeTheDsnForm() {
    String url = DATABASE.mysqlUrl() + "?loc=UTC";
    assertThat(url).startsWith("mysql://" + DATABASE.user());
    try (Connector byUrl = Connectors.open(DATABASE.adapter(url, Map.of()))) {
      byUrl.check(Deadline.after(TIMEOUT));
      JsonNode rows =
          byUrl.execute(
              StatementFixture.sql(kind(), "SELECT DATABASE() AS db, COUNT(*) AS n FROM items"),
              Map.of(),
              Deadline.after(TIMEOUT));
      assertThat(rows.get(0).get("db").asString()).isEqualTo(DATABASE.name());
      assertThat(rows.get(0).get("n").asLong())
          .isEqualTo(run("SELECT COUNT(*) AS n FROM items", Map.of()).get(0).get("n").asLong())
          .isPositive();
    }
  }

  @Test
  void aWrongPortIsAClearConnectorFailure() {
    Connector wrong = Connectors.open(DATABASE.adapter("root:@tcp(127.0.0.1:1)/x", Map.of()));

    assertThatThrownBy(() -> wrong.check(Deadline.after(TIMEOUT)))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage("cannot connect to mysql adapter `db` at 127.0.0.1:1: connection refused");
    wrong.close();
  }

  @Test
  void wrongCredentialsAreAnAuthenticationFailure() {
    Connector wrong =
        Connectors.open(
            DATABASE.adapter(
                DATABASE.user() + ":wr%40ng@tcp(127.0.0.1:" + DATABASE.port() + ")/x", Map.of()));

    assertThatThrownBy(() -> wrong.check(Deadline.after(TIMEOUT)))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessageStartingWith(
            "cannot connect to mysql adapter `db` at 127.0.0.1:"
                + DATABASE.port()
                + ": authentication failed for user `"
                + DATABASE.user()
                + "`")
        .hasMessageNotContaining("wr@ng")
        .hasMessageNotContaining("wr%40ng");
    wrong.close();
  }

  @Test
  void aStatementTheServerRejectsIsQuotedWithItsPlaceholdersNeverWithTheValues() {
    // were the statement prepared by Connector/J instead, the server would quote the value spliced
    // into the text: near 'SELEC name FROM items WHERE name = 'my-credit-card-4111''
    StatementFailedException failure =
        catchThrowableOfType(
            StatementFailedException.class,
            () ->
                run(
                    "SELEC name FROM items WHERE name = {{ inputs.name }}",
                    values("name", SECRET)));

    assertThat(failure.getMessage())
        .contains("near 'SELEC name FROM items WHERE name = ?'")
        .doesNotContain(SECRET);
  }

  /**
   * The server's own counters of this connection (one connection: every call shares it) pin what it
   * received: {@code Com_stmt_prepare}/{@code Com_stmt_execute} move only for statements the server
   * prepared. Other witnesses were not usable here: MariaDB's {@code performance_schema} is off by
   * default (and needs a restart), the general log is a global setting of a server other tests
   * share, and global status counters move with every other test's statements.
   */
  @Test
  void valuesTravelAsParametersOfAStatementTheServerPreparedOncePerConnection() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));
    String byName = "SELECT id FROM items WHERE name = {{ inputs.name }}";
    Map<String, Long> before = statementCounters();
    Map<String, Long> reading = difference(statementCounters(), before); // what reading costs

    Map<String, Long> first = statementCounters();
    for (String name : List.of("apple", "banana", SECRET)) {
      run(byName, values("name", name));
    }
    Map<String, Long> firstCalls = difference(difference(statementCounters(), first), reading);
    Map<String, Long> second = statementCounters();
    for (String name : List.of("cherry", SECRET, "apple")) {
      run(byName, values("name", name));
    }
    Map<String, Long> secondCalls = difference(difference(statementCounters(), second), reading);

    // a statement prepared by Connector/J is sent as a plain query: neither counter would move
    assertThat(firstCalls)
        .containsEntry("Com_stmt_prepare", 1L)
        .containsEntry("Com_stmt_execute", 3L);
    assertThat(secondCalls)
        .containsEntry("Com_stmt_prepare", 0L)
        .containsEntry("Com_stmt_execute", 3L);
  }

  @Test
  void aConnectionKeepsNoMoreStatementsPreparedOnTheServerThanItsTwoCachesHold() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));
    int limit = PooledConnection.STATEMENT_CACHE_SIZE + MysqlDialect.SERVER_STATEMENT_CACHE;
    Map<String, Long> before = statementCounters();

    for (int i = 0; i < limit + 100; i++) {
      run("SELECT {{ inputs.n }} + " + i + " AS n", values("n", 1L));
    }
    Map<String, Long> after = difference(statementCounters(), before);

    long open = after.get("Com_stmt_prepare") - after.get("Com_stmt_close");
    // each statement prepared once, and the reading statement again: both caches dropped it
    assertThat(after.get("Com_stmt_prepare")).isEqualTo(limit + 101L);
    assertThat(open).isBetween((long) limit - 1, (long) limit + 1);
  }

  /** This connection's counts of statements prepared and executed by the server. */
  private Map<String, Long> statementCounters() {
    Map<String, Long> counters = new HashMap<>();
    for (JsonNode row : run("SHOW SESSION STATUS LIKE 'Com_stmt_%'", Map.of())) {
      counters.put(
          row.get("Variable_name").asString(), Long.parseLong(row.get("Value").asString()));
    }
    assertThat(counters).containsKeys("Com_stmt_prepare", "Com_stmt_execute", "Com_stmt_close");
    return counters;
  }

  private static Map<String, Long> difference(Map<String, Long> after, Map<String, Long> before) {
    Map<String, Long> difference = new HashMap<>();
    after.forEach((name, value) -> difference.put(name, value - before.getOrDefault(name, 0L)));
    return difference;
  }

  @Test
  void aMissingTableIsReportedInTheServersWords() {
    assertThatThrownBy(() -> run("SELECT * FROM itemz", Map.of()))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("Table '" + DATABASE.name() + ".itemz' doesn't exist");
  }

  @Test
  void aDuplicateEntryIsReportedWithThePlaceholderForTheKey() {
    run("CREATE TABLE cards (card VARCHAR(50) PRIMARY KEY)", Map.of());
    String insert = "INSERT INTO cards VALUES ({{ inputs.card }})";
    run(insert, values("card", SECRET));

    assertThatThrownBy(() -> run(insert, values("card", SECRET)))
        .isInstanceOf(StatementFailedException.class)
        .hasMessageStartingWith("Duplicate entry '{{ inputs.card }}' for key")
        .hasMessageNotContaining(SECRET);
  }
}
