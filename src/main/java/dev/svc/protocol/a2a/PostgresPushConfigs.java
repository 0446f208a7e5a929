package dev.svc.protocol.a2a;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/**
 * The PostgreSQL task store's push notification configs ({@code svc_a2a_push_configs}): each
 * belongs to a task, and is read, written and deleted only in the task's scope (its agent and
 * principal), checked in the same statement.
 */
final class PostgresPushConfigs {
  private final PostgresTaskConnections connections;

  PostgresPushConfigs(PostgresTaskConnections connections) {
    this.connections = connections;
  }

  void save(TaskStore.Scope scope, PushConfig config) {
    connections.run(
        "save a push config of task " + config.taskId(),
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  """
                  INSERT INTO svc_a2a_push_configs (task_id, id, body)
                  SELECT id, ?, ? FROM svc_a2a_tasks WHERE id = ? AND agent = ? AND principal = ?
                  ON CONFLICT (task_id, id) DO UPDATE SET body = excluded.body\
                  """)) {
            s.setString(1, config.id());
            s.setString(2, StoredTasks.json(config.toJson()));
            s.setString(3, config.taskId());
            s.setString(4, scope.agent());
            s.setString(5, scope.principal().id());
            return s.executeUpdate();
          }
        });
  }

  List<PushConfig> of(TaskStore.Scope scope, String taskId) {
    return connections.run(
        "read the push configs of task " + taskId,
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  """
                  SELECT p.body FROM svc_a2a_push_configs p JOIN svc_a2a_tasks t ON t.id = p.task_id
                  WHERE p.task_id = ? AND t.agent = ? AND t.principal = ? ORDER BY p.created\
                  """)) {
            s.setString(1, taskId);
            s.setString(2, scope.agent());
            s.setString(3, scope.principal().id());
            List<PushConfig> configs = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
              while (rs.next()) {
                configs.add(
                    PushConfig.fromJson(StoredTasks.parse(rs.getString(1)), "stored push config"));
              }
            }
            return configs;
          }
        });
  }

  boolean delete(TaskStore.Scope scope, String taskId, String configId) {
    return connections.run(
        "delete a push config of task " + taskId,
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  """
                  DELETE FROM svc_a2a_push_configs p USING svc_a2a_tasks t
                  WHERE p.task_id = ? AND p.id = ? AND t.id = p.task_id AND t.agent = ?
                    AND t.principal = ?\
                  """)) {
            s.setString(1, taskId);
            s.setString(2, configId);
            s.setString(3, scope.agent());
            s.setString(4, scope.principal().id());
            return s.executeUpdate() > 0;
          }
        });
  }
}
