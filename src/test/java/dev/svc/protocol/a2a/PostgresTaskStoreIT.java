package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.testing.TcpProxy;
import dev.svc.testing.TestDatabase;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The task store contracts on a real PostgreSQL database, created for this class. */
class PostgresTaskStoreIT extends SharedTaskStoreContract {
  @RegisterExtension static final TestDatabase db = TestDatabase.postgres();

  @Override
  TaskStore open(SharedTasks.Settings settings) {
    return new PostgresTaskStore(db.adapter(Map.of()), settings);
  }

  @Override
  TaskStore openThrough(TcpProxy proxy) {
    String through = db.connectionString().replace(":" + db.port() + "/", ":" + proxy.port() + "/");
    return new PostgresTaskStore(db.adapter(through, Map.of()), SharedTasks.Settings.DEFAULTS);
  }

  @Override
  InetSocketAddress server() {
    return new InetSocketAddress(db.host(), db.port());
  }

  Connection admin() throws Exception {
    return DriverManager.getConnection(
        "jdbc:postgresql://" + db.host() + ":" + db.port() + "/" + db.name(), db.user(), "");
  }

  @BeforeEach
  void emptyDatabase() throws Exception {
    try (Connection c = admin();
        Statement s = c.createStatement()) {
      s.execute(
          "DROP TABLE IF EXISTS svc_a2a_events, svc_a2a_push_configs, svc_a2a_tasks,"
              + " svc_a2a_messages, svc_a2a_schema CASCADE");
    }
  }

  @Test
  void theTablesAreMadeOnFirstUseAndTheirVersionIsRecorded() throws Exception {
    store().find(WEATHER_ALICE, "x");
    open(SharedTasks.Settings.DEFAULTS).close();
    try (Connection c = admin();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version FROM svc_a2a_schema")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(PostgresTaskStore.SCHEMA_VERSION);
      assertThat(rs.next()).as("one row, however many instances start").isFalse();
    }
  }

  @Test
  void aTableLockedByAnotherSessionFailsTheReadInSecondsInsteadOfHoldingIt() throws Exception {
    // before: a GetTask waited as long as the lock was held (35 s and more), and a frozen
    // database held requests until TCP gave up; now a lock wait ends after 5 s, a statement
    // after 10 s, a silent socket after 15 s, each an unavailable store (-32603)
    TaskStore store = store();
    store.find(WEATHER_ALICE, "x");
    try (Connection locker = admin();
        Statement s = locker.createStatement()) {
      locker.setAutoCommit(false);
      s.execute("LOCK TABLE svc_a2a_tasks IN ACCESS EXCLUSIVE MODE");
      long start = System.nanoTime();
      assertThatThrownBy(() -> store.find(WEATHER_ALICE, "x"))
          .isInstanceOf(TaskStoreException.class)
          .hasMessageContaining("lock timeout");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(9));
      locker.rollback();
    }
    assertThat(store.find(WEATHER_ALICE, "x")).as("served again once the lock is gone").isEmpty();
  }

  @Test
  void tablesOfANewerSchemaAreRefusedWithAMessage() throws Exception {
    store().close();
    try (Connection c = admin();
        Statement s = c.createStatement()) {
      s.execute("UPDATE svc_a2a_schema SET version = 99");
    }
    assertThatThrownBy(() -> open(SharedTasks.Settings.DEFAULTS))
        .isInstanceOf(TaskStoreException.class)
        .hasMessageContaining("schema version 99")
        .hasMessageContaining("newer svc")
        .hasMessageContaining("postgres adapter `db`");
    // before: the refused store kept the pooled connection that read the version, open for good
    try (Connection c = admin();
        Statement s = c.createStatement()) {
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      int others = sessionsBesides(s);
      while (others > 0 && System.nanoTime() < deadline) {
        Thread.sleep(50); // the first store's listener lets go of its connection
        others = sessionsBesides(s);
      }
      assertThat(others).as("connections the refused store left open").isZero();
    }
  }

  private int sessionsBesides(Statement s) throws Exception {
    try (ResultSet rs =
        s.executeQuery(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '"
                + db.name()
                + "' AND pid <> pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void tablesAnOlderSvcMadeGetTheMessageIdTableAndKeepTheirVersion() throws Exception {
    store().find(WEATHER_ALICE, "x");
    store().close();
    try (Connection c = admin();
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE svc_a2a_messages"); // as version 1 was before message ids
    }
    try (TaskStore upgraded = open(SharedTasks.Settings.DEFAULTS)) {
      String taskId = newId();
      assertThat(upgraded.claimMessage(WEATHER_ALICE, "m-1", taskId)).isEmpty();
      assertThat(upgraded.claimMessage(WEATHER_ALICE, "m-1", newId())).contains(taskId);
    }
    try (Connection c = admin();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT max(version) FROM svc_a2a_schema")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).as("an older svc still starts on it").isEqualTo(1);
    }
  }
}
