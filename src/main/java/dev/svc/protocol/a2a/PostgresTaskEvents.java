package dev.svc.protocol.a2a;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * The PostgreSQL task store's event history ({@code svc_a2a_events}): every event of a task that an
 * instance runs, numbered, appended with a notification on the store's channel in the same
 * statement, and read back in order by the instances whose clients subscribe.
 */
final class PostgresTaskEvents {
  /** Events read at once, at most. */
  private static final int MAX_EVENTS = 1_000;

  private final PostgresTaskConnections connections;

  PostgresTaskEvents(PostgresTaskConnections connections) {
    this.connections = connections;
  }

  void append(String taskId, long seq, StreamResponse event) {
    boolean terminal =
        event instanceof StreamResponse.StatusUpdate update && update.status().state().isTerminal();
    String body = StoredTasks.json(event.toJson());
    connections.run(
        "append an event of task " + taskId,
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  """
                  WITH e AS (INSERT INTO svc_a2a_events (task_id, seq, terminal, body)
                    VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING)
                  SELECT pg_notify(?, ?)\
                  """)) {
            s.setString(1, taskId);
            s.setLong(2, seq);
            s.setBoolean(3, terminal);
            s.setString(4, body);
            s.setString(5, PostgresTaskStore.CHANNEL);
            s.setString(6, TaskSignals.changed(taskId));
            s.execute();
            return null;
          }
        });
  }

  List<SharedTasks.Event> after(String taskId, long after) {
    return connections.run(
        "read the events of task " + taskId,
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT seq, terminal, body FROM svc_a2a_events WHERE task_id = ? AND seq > ?"
                      + " ORDER BY seq LIMIT "
                      + MAX_EVENTS)) {
            s.setString(1, taskId);
            s.setLong(2, after);
            List<SharedTasks.Event> events = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
              while (rs.next()) {
                events.add(
                    new SharedTasks.Event(
                        rs.getLong(1),
                        (ObjectNode) StoredTasks.parse(rs.getString(3)),
                        rs.getBoolean(2)));
              }
            }
            return events;
          }
        });
  }
}
