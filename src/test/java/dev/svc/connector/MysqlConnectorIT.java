package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Deadline;
import dev.svc.model.ConnectorKind;
import dev.svc.testing.TestDatabase;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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
  void aMissingTableIsReportedInTheServersWords() {
    assertThatThrownBy(() -> run("SELECT * FROM itemz", Map.of()))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("Table '" + DATABASE.name() + ".itemz' doesn't exist");
  }
}
