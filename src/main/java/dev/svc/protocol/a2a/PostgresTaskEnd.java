package dev.svc.protocol.a2a;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Ending a task in the PostgreSQL store, in one transaction: its row is locked ({@code FOR UPDATE
 * SKIP LOCKED}, so two instances never both end it), given the terminal status and an event number
 * after every event any snapshot has seen, and the terminal event is appended and announced. A
 * canceled task, a failed one whose instance died, and a run's own end all come here.
 */
final class PostgresTaskEnd {
  private PostgresTaskEnd() {}

  /**
   * Ends the task on {@code c}, inside the caller's transaction.
   *
   * @param onlyUnleased end it only when no instance holds its lease (an expired task)
   * @return the ended task; empty when it is not there, ended already, locked by another ending, or
   *     (with {@code onlyUnleased}) leased
   */
  static Optional<Task> run(
      Connection c, TaskStore.Scope scope, String taskId, TaskStatus status, boolean onlyUnleased)
      throws SQLException {
    Task task;
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT body FROM svc_a2a_tasks WHERE id = ? AND agent = ? AND principal = ?"
                + " AND NOT terminal"
                + (onlyUnleased ? " AND (lease_until IS NULL OR lease_until <= now())" : "")
                + " FOR UPDATE SKIP LOCKED")) {
      s.setString(1, taskId);
      s.setString(2, scope.agent());
      s.setString(3, scope.principal().id());
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        task = StoredTasks.task(rs.getString(1));
      }
    }
    Task ended = StoredTasks.ended(task, status);
    long seq;
    try (PreparedStatement s =
        c.prepareStatement(
            """
            UPDATE svc_a2a_tasks SET state = ?, terminal = true, status_ms = ?, body = ?,
              lease_until = NULL, updated_at = now(),
              seq = greatest(seq,
                (SELECT coalesce(max(seq), 0) FROM svc_a2a_events WHERE task_id = ?)) + 1
            WHERE id = ? RETURNING seq\
            """)) {
      s.setString(1, status.state().name());
      s.setLong(2, status.timestamp().toEpochMilli());
      s.setString(3, StoredTasks.json(ended.toJson()));
      s.setString(4, taskId);
      s.setString(5, taskId);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        seq = rs.getLong(1);
      }
    }
    try (PreparedStatement s =
        c.prepareStatement(
            """
            WITH e AS (INSERT INTO svc_a2a_events (task_id, seq, terminal, body)
              VALUES (?, ?, true, ?) ON CONFLICT DO NOTHING)
            SELECT pg_notify(?, ?)\
            """)) {
      s.setString(1, taskId);
      s.setLong(2, seq);
      s.setString(
          3,
          StoredTasks.json(
              new StreamResponse.StatusUpdate(taskId, task.contextId(), status).toJson()));
      s.setString(4, PostgresTaskStore.CHANNEL);
      s.setString(5, TaskSignals.changed(taskId));
      s.execute();
    }
    return Optional.of(ended);
  }
}
