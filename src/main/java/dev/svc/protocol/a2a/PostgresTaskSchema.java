package dev.svc.protocol.a2a;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The PostgreSQL task store's tables ({@code svc_a2a_*}): created on first use in one transaction
 * under an advisory lock (so instances starting together create them once), and versioned in {@code
 * svc_a2a_schema}. A database whose tables a newer svc wrote is refused, not read.
 */
final class PostgresTaskSchema {
  /** The version of the tables this svc reads and writes. */
  static final int VERSION = 1;

  private static final long LOCK = 0x5356_4332_4131L; // "SVC2A1": one per database

  private PostgresTaskSchema() {}

  /**
   * Creates the tables, or checks the version of those there.
   *
   * @throws TaskStoreException when the database cannot be reached or holds a newer schema
   */
  static void create(PostgresTaskConnections connections, String description) {
    connections.run(
        "create its tables",
        c -> {
          c.setAutoCommit(false);
          try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(" + LOCK + ")");
            s.execute("CREATE TABLE IF NOT EXISTS svc_a2a_schema (version integer NOT NULL)");
            int version = 0;
            try (ResultSet rs = s.executeQuery("SELECT max(version) FROM svc_a2a_schema")) {
              if (rs.next()) {
                version = rs.getInt(1);
              }
            }
            if (version > VERSION) {
              throw new TaskStoreException(
                  description
                      + " holds tables of schema version "
                      + version
                      + ", written by a newer svc; this one reads version "
                      + VERSION
                      + ": upgrade every instance, or name another database");
            }
            if (version == 0) {
              for (String ddl : SCHEMA_1) {
                s.execute(ddl);
              }
              s.execute("INSERT INTO svc_a2a_schema (version) VALUES (" + VERSION + ")");
            }
            // added tables keep the version: an older svc neither reads them nor is refused by
            // them, so instances can be upgraded one at a time. Created only when missing: a
            // role that may use the tables but not create any keeps starting once they exist.
            boolean added;
            try (ResultSet rs =
                s.executeQuery("SELECT to_regclass('svc_a2a_messages') IS NOT NULL")) {
              added = rs.next() && rs.getBoolean(1);
            }
            if (!added) {
              for (String ddl : ADDED) {
                s.execute(ddl);
              }
            }
            c.commit();
          } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
          } finally {
            c.setAutoCommit(true);
          }
          return null;
        });
  }

  /** Tables added to version 1 that older instances ignore: the received message ids. */
  private static final List<String> ADDED =
      List.of(PostgresMessageClaims.TABLE, PostgresMessageClaims.INDEX);

  private static final List<String> SCHEMA_1 =
      List.of(
          """
          CREATE TABLE IF NOT EXISTS svc_a2a_tasks (
            id text PRIMARY KEY,
            agent text NOT NULL,
            principal text NOT NULL,
            context_id text NOT NULL,
            created bigserial NOT NULL,
            state text NOT NULL,
            terminal boolean NOT NULL,
            status_ms bigint NOT NULL,
            seq bigint NOT NULL DEFAULT 0,
            body text NOT NULL,
            owner text,
            lease_until timestamptz,
            updated_at timestamptz NOT NULL DEFAULT now())\
          """,
          "CREATE INDEX IF NOT EXISTS svc_a2a_tasks_listing"
              + " ON svc_a2a_tasks (agent, principal, status_ms DESC, id DESC)",
          "CREATE INDEX IF NOT EXISTS svc_a2a_tasks_context"
              + " ON svc_a2a_tasks (agent, principal, context_id, created)",
          "CREATE INDEX IF NOT EXISTS svc_a2a_tasks_leases"
              + " ON svc_a2a_tasks (lease_until) WHERE NOT terminal",
          "CREATE INDEX IF NOT EXISTS svc_a2a_tasks_finished"
              + " ON svc_a2a_tasks (updated_at) WHERE terminal",
          """
          CREATE TABLE IF NOT EXISTS svc_a2a_events (
            task_id text NOT NULL REFERENCES svc_a2a_tasks (id) ON DELETE CASCADE,
            seq bigint NOT NULL,
            terminal boolean NOT NULL,
            body text NOT NULL,
            PRIMARY KEY (task_id, seq))\
          """,
          """
          CREATE TABLE IF NOT EXISTS svc_a2a_push_configs (
            task_id text NOT NULL REFERENCES svc_a2a_tasks (id) ON DELETE CASCADE,
            id text NOT NULL,
            created bigserial NOT NULL,
            body text NOT NULL,
            PRIMARY KEY (task_id, id))\
          """);
}
