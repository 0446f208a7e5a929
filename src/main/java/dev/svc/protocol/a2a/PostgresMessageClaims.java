package dev.svc.protocol.a2a;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Optional;

/**
 * The PostgreSQL task store's received message ids ({@code svc_a2a_messages}): one row per claim,
 * keyed by {@link MessageClaims#key} (the scope is in the key), inserted with {@code ON CONFLICT DO
 * NOTHING} so that of two instances receiving the same message at once one wins. The housekeeping
 * deletes rows older than the retention, as {@link RedisMessageClaims}' expire: a task finished is
 * kept that long after it finished, so a claim does not outlive its task.
 */
final class PostgresMessageClaims {
  static final String TABLE =
      """
      CREATE TABLE IF NOT EXISTS svc_a2a_messages (
        claim text PRIMARY KEY,
        task_id text NOT NULL,
        created timestamptz NOT NULL DEFAULT now())\
      """;

  static final String INDEX =
      "CREATE INDEX IF NOT EXISTS svc_a2a_messages_created ON svc_a2a_messages (created)";

  private final PostgresTaskConnections connections;

  PostgresMessageClaims(PostgresTaskConnections connections) {
    this.connections = connections;
  }

  Optional<String> claim(TaskStore.Scope scope, String messageId, String taskId) {
    String claim = MessageClaims.key(scope, messageId);
    // a claim deleted between the insert and the read (its retention ended) is claimed anew
    for (int attempt = 0; attempt < 3; attempt++) {
      int inserted =
          connections.run(
              "claim a message id",
              c -> {
                try (PreparedStatement s =
                    c.prepareStatement(
                        "INSERT INTO svc_a2a_messages (claim, task_id) VALUES (?, ?)"
                            + " ON CONFLICT (claim) DO NOTHING")) {
                  s.setString(1, claim);
                  s.setString(2, taskId);
                  return s.executeUpdate();
                }
              });
      if (inserted == 1) {
        return Optional.empty();
      }
      Optional<String> holder =
          connections.run(
              "read a message id's task",
              c -> {
                try (PreparedStatement s =
                    c.prepareStatement("SELECT task_id FROM svc_a2a_messages WHERE claim = ?")) {
                  s.setString(1, claim);
                  try (ResultSet rs = s.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
                  }
                }
              });
      if (holder.isPresent()) {
        return holder;
      }
    }
    throw new TaskStoreException("a message id could not be claimed: it changed hands three times");
  }

  void release(TaskStore.Scope scope, String messageId, String taskId) {
    connections.run(
        "release a message id",
        c -> {
          try (PreparedStatement s =
              c.prepareStatement("DELETE FROM svc_a2a_messages WHERE claim = ? AND task_id = ?")) {
            s.setString(1, MessageClaims.key(scope, messageId));
            s.setString(2, taskId);
            return s.executeUpdate();
          }
        });
  }

  /** Deletes the claims made longer than {@code retention} ago. */
  int deleteExpired(Duration retention) {
    return connections.run(
        "delete expired message ids",
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "DELETE FROM svc_a2a_messages WHERE created < now() - make_interval(secs => ?)")) {
            s.setDouble(1, retention.toMillis() / 1000.0);
            return s.executeUpdate();
          }
        });
  }
}
