package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Deadline;
import dev.svc.model.ConnectorKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQL connector on local SQLite files and in-memory databases. */
class SqliteConnectorIT extends JdbcConnectorContract {
  @TempDir Path directory;

  @Override
  ConnectorKind kind() {
    return ConnectorKind.SQLITE;
  }

  @Override
  ResolvedAdapter adapter(Map<String, String> options) {
    return sqlite(directory.resolve("test.db").toString(), options);
  }

  private ResolvedAdapter sqlite(String connectionString, Map<String, String> options) {
    return new ResolvedAdapter("db", ConnectorKind.SQLITE, connectionString, options, directory);
  }

  @Override
  String createItems() {
    return "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL, active"
        + " BOOLEAN, created TEXT, note TEXT)";
  }

  @Override
  String readOnlyRefusal() {
    return "readonly database";
  }

  @Override
  String sleep(int seconds) {
    // no sleep function: count far enough that it cannot finish before the deadline
    return "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000000000)"
        + " SELECT max(x) FROM c";
  }

  @Override
  String numbers(long n) {
    return "WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < "
        + n
        + ") SELECT g FROM s";
  }

  @Override
  String numbersFailingPast(long n, long total) {
    // abs() of the smallest integer is SQLite's "integer overflow" error; (g - g) keeps it per row
    return "WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < "
        + total
        + ") SELECT CASE WHEN g > "
        + n
        + " THEN abs(-9223372036854775807 - 1 + (g - g)) ELSE g END AS g FROM s";
  }

  @Override
  String statementQuotingItsValue() {
    return "SELECT json_extract('{}', {{ inputs.value }}) AS v";
  }

  @Override
  String messageQuotingThePlaceholder() {
    return "bad JSON path: '{{ inputs.value }}'";
  }

  @Override
  Optional<String> countLongSleeps() {
    return Optional.empty();
  }

  @Test
  void everyStorageClassMapsToItsJsonForm() {
    run("CREATE TABLE kinds (i INTEGER, r REAL, t TEXT, b BLOB, n)", Map.of());
    run("INSERT INTO kinds VALUES (9007199254740993, 1.5, 'héllo', x'00ff10', NULL)", Map.of());

    assertJson(
        run("SELECT * FROM kinds", Map.of()),
        "[{\"i\": 9007199254740993, \"r\": 1.5, \"t\": \"héllo\", \"b\": \"AP8Q\", \"n\": null}]");
  }

  @Test
  void aValuePastTheLengthLimitIsRefusedAtTheCeilingUnreadAndTheNextCallIsServed() {
    // before: no limit; a 200 MB blob was copied onto the heap, then base64'd, before its row
    // could be counted, and the first call ended a 512 MiB server with OutOfMemoryError
    run("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)", Map.of());
    run("INSERT INTO blobs VALUES (1, zeroblob(2000000)), (2, x'00ff')", Map.of());
    connector.close();
    connector = Connectors.open(adapter(Map.of("limit_length", "1048576", "max_connections", "1")));

    for (int call = 0; call < 2; call++) { // the same statement again, on the same connection
      assertThatThrownBy(() -> run("SELECT data FROM blobs WHERE id = 1", Map.of()))
          .isInstanceOf(ResultRefusedException.class)
          .hasMessageStartingWith("the result passed svc's ceiling of");
    }
    assertJson(
        run("SELECT length(data) AS n FROM blobs WHERE id = 1", Map.of()), "[{\"n\": 2000000}]");
    assertJson(run("SELECT data FROM blobs WHERE id = 2", Map.of()), "[{\"data\": \"AP8=\"}]");
  }

  @Test
  void dateTimesAreStoredAsIsoText() {
    assertJson(
        run("SELECT created FROM items WHERE id = 1", Map.of()),
        "[{\"created\": \"2024-05-01T10:00:00Z\"}]");
  }

  @Test
  void aFileDatabaseUsesWal() {
    assertJson(run("PRAGMA journal_mode", Map.of()), "[{\"journal_mode\": \"wal\"}]");
  }

  @Test
  void aRelativePathIsResolvedAgainstTheProjectDirectory() throws Exception {
    Files.createDirectories(directory.resolve("data"));
    try (Connector relative = Connectors.open(sqlite("file:./data/shop.db", Map.of()));
        Connector plain = Connectors.open(sqlite("data/plain.db", Map.of()))) {
      relative.execute(
          dev.svc.compile.StatementFixture.sql(kind(), "CREATE TABLE t (x INTEGER)"),
          Map.of(),
          Deadline.after(TIMEOUT));
      plain.check(Deadline.after(TIMEOUT));
    }

    assertThat(directory.resolve("data/shop.db")).exists();
    assertThat(directory.resolve("data/plain.db")).exists();
    assertThat(Path.of("data/shop.db")).doesNotExist();
  }

  @Test
  void aNewFileOpensAFullPoolAtOnce() {
    // several connections switching a new file to WAL together used to fail "database is locked"
    for (int i = 0; i < 100; i++) {
      try (Connector fresh =
          Connectors.open(sqlite("fresh" + i + ".db", Map.of("max_connections", "8")))) {
        fresh.check(Deadline.after(TIMEOUT));
      }
    }
  }

  @Test
  void anInMemoryDatabaseIsSharedByEveryPoolConnection() {
    connector.close();
    connector = Connectors.open(sqlite(":memory:", Map.of("max_connections", "4")));
    connector.check(Deadline.after(TIMEOUT));
    run("CREATE TABLE t (x INTEGER)", Map.of());
    run("INSERT INTO t VALUES (7)", Map.of());

    // the pool hands connections out in FIFO order: eight calls use each of the four twice
    for (int i = 0; i < 8; i++) {
      assertJson(run("SELECT x FROM t", Map.of()), "[{\"x\": 7}]");
    }
  }

  @Test
  void eachInMemoryAdapterHasItsOwnDatabase() {
    try (Connector other = Connectors.open(sqlite(":memory:", Map.of()))) {
      connector.close();
      connector = Connectors.open(sqlite(":memory:", Map.of()));
      run("CREATE TABLE t (x INTEGER)", Map.of());

      assertThatThrownBy(() ->
              other.execute(
                  dev.svc.compile.StatementFixture.sql(kind(), "SELECT x FROM t"),
                  Map.of(),
                  Deadline.after(TIMEOUT)))
          .isInstanceOf(StatementFailedException.class)
          .hasMessage("no such table: t");
    }
  }

  @Test
  void aFileThatCannotBeOpenedIsAClearConnectorFailure() {
    Path missing = directory.resolve("missing/dir/x.db");
    try (Connector broken = Connectors.open(sqlite(missing.toString(), Map.of()))) {
      assertThatThrownBy(() -> broken.check(Deadline.after(TIMEOUT)))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessageStartingWith("cannot open sqlite adapter `db` at " + missing + ": ");
    }
  }
}
