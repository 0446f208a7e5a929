package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.model.ConnectorKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteOpenMode;

class SqliteDialectTest {
  private static final Path PROJECT = Path.of("/srv/project");

  private static JdbcSettings settings(String connectionString, Map<String, String> options) {
    return SqliteDialect.INSTANCE.settings(
        new ResolvedAdapter("db", ConnectorKind.SQLITE, connectionString, options, PROJECT));
  }

  @Test
  void instancesStartingTogetherSeedTheFileOnceAndNoneFails(@TempDir Path dir) throws Exception {
    // before: both ran the script on the same new file; the second failed ("table products
    // already exists") and deleted the file the first had just made
    Files.writeString(
        dir.resolve("seed.sql"),
        "CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT);"
            + " INSERT INTO products VALUES (1, 'kettle');");
    ResolvedAdapter adapter =
        new ResolvedAdapter(
            "shop", ConnectorKind.SQLITE, "file:./shop.db", Map.of("seed", "seed.sql"), dir);
    java.util.List<java.util.concurrent.Future<?>> starts = new java.util.ArrayList<>();
    try (var pool = java.util.concurrent.Executors.newFixedThreadPool(8)) {
      java.util.concurrent.CountDownLatch together = new java.util.concurrent.CountDownLatch(1);
      for (int i = 0; i < 8; i++) {
        starts.add(
            pool.submit(() -> {
              together.await();
              SqliteDialect.INSTANCE.prepare(adapter, SqliteDialect.INSTANCE.settings(adapter));
              return null;
            }));
      }
      together.countDown();
      for (var start : starts) {
        start.get(); // none throws
      }
    }
    try (var connection =
            java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("shop.db"));
        var rows = connection.createStatement().executeQuery("SELECT count(*) FROM products")) {
      assertThat(rows.getInt(1)).isEqualTo(1);
    }
    try (var left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("seed.sql", "shop.db");
    }
  }

  @Test
  void aFailingSeedScriptLeavesNoFileBehind(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("seed.sql"), "CREATE TABLE t (id INTEGER); NOT SQL;");
    ResolvedAdapter adapter =
        new ResolvedAdapter(
            "shop", ConnectorKind.SQLITE, "file:./shop.db", Map.of("seed", "seed.sql"), dir);
    assertThatThrownBy(
            () -> SqliteDialect.INSTANCE.prepare(adapter, SqliteDialect.INSTANCE.settings(adapter)))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessageContaining("the seed script seed.sql failed");
    try (var left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactly("seed.sql");
    }
  }

  @Test
  void memoryIsOneNamedSharedDatabasePerAdapter() {
    JdbcSettings first = settings(":memory:", Map.of());
    JdbcSettings second = settings(":memory:", Map.of());

    assertThat(first.url()).startsWith("jdbc:sqlite:file:/svc-memory-").endsWith("?vfs=memdb");
    assertThat(first.url()).isNotEqualTo(second.url());
    assertThat(first.anchored()).isTrue();
    assertThat(first.poolSize()).isEqualTo(SqliteDialect.DEFAULT_MEMORY_POOL_SIZE);
    assertThat(first.properties())
        .containsEntry("busy_timeout", "5000")
        .doesNotContainKey("journal_mode");
  }

  @Test
  void connectionsOpenWithoutSqlitesMutexAndWithoutGeneratedKeyLookups() {
    for (String connectionString : new String[] {":memory:", "file:./shop.db"}) {
      JdbcSettings settings = settings(connectionString, Map.of());
      int openMode = Integer.parseInt(settings.properties().get("open_mode"));

      assertThat(openMode & SQLiteOpenMode.NOMUTEX.flag).isNotZero();
      assertThat(openMode & SQLiteOpenMode.READWRITE.flag).isNotZero();
      assertThat(openMode & SQLiteOpenMode.CREATE.flag).isNotZero();
      assertThat(settings.properties()).containsEntry("jdbc.get_generated_keys", "false");
    }
    assertThat(settings(":memory:", Map.of("open_mode", "6")).properties())
        .as("an option the user wrote wins")
        .containsEntry("open_mode", "6");
  }

  @Test
  void noStringOrBlobPastTheResultCeilingIsMadeOrRead() {
    String ceiling = Long.toString(ResultMemory.process().ceilingBytes());
    for (String connectionString : new String[] {":memory:", "file:./shop.db"}) {
      assertThat(settings(connectionString, Map.of()).properties())
          .containsEntry("limit_length", ceiling);
    }
    assertThat(settings(":memory:", Map.of("limit_length", "1000")).properties())
        .as("an option the user wrote wins")
        .containsEntry("limit_length", "1000");
  }

  @Test
  void aRelativeFileIsResolvedAgainstTheDataDirectoryWhenOneIsGivenAndAnAbsoluteOneStaysPut() {
    ResolvedAdapter relative =
        new ResolvedAdapter(
            "db", ConnectorKind.SQLITE, "file:./shop.db", Map.of(), PROJECT, Path.of("/data"));
    ResolvedAdapter absolute =
        new ResolvedAdapter(
            "db", ConnectorKind.SQLITE, "/srv/db/shop.db", Map.of(), PROJECT, Path.of("/data"));

    assertThat(SqliteDialect.INSTANCE.settings(relative).location()).isEqualTo("/data/shop.db");
    assertThat(SqliteDialect.INSTANCE.settings(absolute).location()).isEqualTo("/srv/db/shop.db");
  }

  @Test
  void aRelativeFileIsResolvedAgainstTheProjectDirectory() {
    JdbcSettings settings = settings("file:./data/shop.db", Map.of());

    assertThat(settings.url()).isEqualTo("jdbc:sqlite:/srv/project/data/shop.db");
    assertThat(settings.location()).isEqualTo("/srv/project/data/shop.db");
    assertThat(settings.anchored()).isFalse();
    assertThat(settings.poolSize()).isEqualTo(SqliteDialect.DEFAULT_FILE_POOL_SIZE);
    assertThat(settings.properties())
        .containsEntry("journal_mode", "WAL")
        .containsEntry("synchronous", "NORMAL")
        .containsEntry("busy_timeout", "5000");
    assertThat(settings("data/../shop.db", Map.of()).url())
        .isEqualTo("jdbc:sqlite:/srv/project/shop.db");
  }

  @Test
  void absolutePathsAndFileUrisStayAbsolute() {
    assertThat(settings("/var/lib/shop.db", Map.of()).url())
        .isEqualTo("jdbc:sqlite:/var/lib/shop.db");
    assertThat(settings("file:/var/lib/shop.db", Map.of()).url())
        .isEqualTo("jdbc:sqlite:/var/lib/shop.db");
    assertThat(settings("file:///var/lib/my%20shop.db", Map.of()).url())
        .isEqualTo("jdbc:sqlite:/var/lib/my shop.db");
    assertThat(settings("file://localhost/var/lib/shop.db", Map.of()).url())
        .isEqualTo("jdbc:sqlite:/var/lib/shop.db");
    assertThatThrownBy(() -> settings("file://elsewhere/var/lib/shop.db", Map.of()))
        .hasMessage("sqlite adapter `db` names a file on host `elsewhere`");
  }

  @Test
  void uriParametersStayOnTheUri() {
    assertThat(settings("file:./my shop.db?mode=ro", Map.of()).url())
        .isEqualTo("jdbc:sqlite:file:/srv/project/my%20shop.db?mode=ro");
  }

  @Test
  void optionsReachTheDriverExceptRemoteOnesAndThePoolSize() {
    JdbcSettings settings =
        settings(
            "x.db",
            Map.of(
                "foreign_keys", "true",
                "busy_timeout", "100",
                "authToken", "secret",
                "sync_interval", "5s",
                "max_connections", "2"));

    assertThat(settings.properties())
        .containsEntry("foreign_keys", "true")
        .containsEntry("busy_timeout", "100")
        .doesNotContainKeys("authToken", "sync_interval", "max_connections");
    assertThat(settings.poolSize()).isEqualTo(2);
  }

  @Test
  void emptyOrRemoteLookingPathsAreRejected() {
    assertThatThrownBy(() -> settings("file:", Map.of()))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage("the connection string of sqlite adapter `db` names no file");
    assertThatThrownBy(() -> settings("ftp://h/x.db", Map.of()))
        .hasMessage(
            "the connection string of sqlite adapter `db` is not a local path: write :memory:,"
                + " file:./<path>.db or an absolute path");
  }

  @Test
  void sqliteMessagesLoseTheDriversDecoration() {
    assertThat(
            SqliteDialect.INSTANCE.message(
                new SQLException(
                    "[SQLITE_ERROR] SQL error or missing database (no such table: itemz)")))
        .isEqualTo("no such table: itemz");
    assertThat(SqliteDialect.INSTANCE.message(new SQLException("plain"))).isEqualTo("plain");
  }

  @Test
  void interruptsAreCancellations() {
    assertThat(
            SqliteDialect.INSTANCE.isCancellation(
                new SQLException("[SQLITE_INTERRUPT] Operation terminated (interrupted)")))
        .isTrue();
    assertThat(SqliteDialect.INSTANCE.isCancellation(new SQLException("x", null, 9))).isTrue();
    assertThat(SqliteDialect.INSTANCE.isCancellation(new SQLException("x", null, 1))).isFalse();
  }
}
