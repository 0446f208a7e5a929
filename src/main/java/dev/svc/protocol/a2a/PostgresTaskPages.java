package dev.svc.protocol.a2a;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code ListTasks} over the PostgreSQL task store: the scope's tasks, filtered, newest status
 * first, a page at a time, each page at most {@link TaskStore#MAX_READ_BYTES} of task bodies (the
 * database sums their sizes and sends no body past it).
 */
final class PostgresTaskPages {
  private final PostgresTaskConnections connections;

  PostgresTaskPages(PostgresTaskConnections connections) {
    this.connections = connections;
  }

  TaskStore.Page list(TaskStore.Scope scope, TaskStore.Query query) {
    StringBuilder where = new StringBuilder(" WHERE agent = ? AND principal = ?");
    List<Object> values = new ArrayList<>(List.of(scope.agent(), scope.principal().id()));
    query
        .contextId()
        .ifPresent(id -> {
          where.append(" AND context_id = ?");
          values.add(id);
        });
    query
        .state()
        .ifPresent(state -> {
          where.append(" AND state = ?");
          values.add(state.name());
        });
    query
        .statusAfter()
        .ifPresent(after -> {
          where.append(" AND status_ms > ?");
          values.add(after.toEpochMilli());
        });
    return connections.run(
        "list tasks",
        c -> {
          int total;
          try (PreparedStatement s =
              c.prepareStatement("SELECT count(*) FROM svc_a2a_tasks" + where)) {
            bind(s, values);
            try (ResultSet rs = s.executeQuery()) {
              rs.next();
              total = rs.getInt(1);
            }
          }
          StringBuilder page = new StringBuilder(where);
          List<Object> pageValues = new ArrayList<>(values);
          query
              .after()
              .ifPresent(cursor -> {
                page.append(" AND (status_ms < ? OR (status_ms = ? AND id < ?))");
                pageValues.add(cursor.timestamp().toEpochMilli());
                pageValues.add(cursor.timestamp().toEpochMilli());
                pageValues.add(cursor.taskId());
              });
          pageValues.add(query.pageSize() + 1);
          // one row more than the page, to tell whether there are more; a row whose body would
          // take the page past TaskStore.MAX_READ_BYTES comes without its body (NULL), and ends the
          // page
          List<Task> tasks = new ArrayList<>();
          boolean more = false;
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT CASE WHEN before < ? THEN body END FROM (SELECT body, status_ms, id,"
                      + " sum(octet_length(body)) OVER (ORDER BY status_ms DESC, id DESC ROWS"
                      + " UNBOUNDED PRECEDING) - octet_length(body) AS before FROM svc_a2a_tasks"
                      + page
                      + " ORDER BY status_ms DESC, id DESC LIMIT ?) page"
                      + " ORDER BY status_ms DESC, id DESC")) {
            List<Object> all = new ArrayList<>(List.of(TaskStore.MAX_READ_BYTES));
            all.addAll(pageValues);
            bind(s, all);
            try (ResultSet rs = s.executeQuery()) {
              while (rs.next()) {
                String body = rs.getString(1);
                if (body == null || tasks.size() == query.pageSize()) {
                  more = true;
                  break;
                }
                tasks.add(StoredTasks.task(body));
              }
            }
          }
          if (!more) {
            return new TaskStore.Page(tasks, total, Optional.empty());
          }
          List<Task> shown = List.copyOf(tasks);
          Task last = shown.getLast();
          return new TaskStore.Page(
              shown,
              total,
              Optional.of(new TaskStore.Cursor(last.status().timestamp(), last.id())));
        });
  }

  private static void bind(PreparedStatement s, List<Object> values) throws SQLException {
    for (int i = 0; i < values.size(); i++) {
      Object value = values.get(i);
      switch (value) {
        case String text -> s.setString(i + 1, text);
        case Long number -> s.setLong(i + 1, number);
        case Integer number -> s.setInt(i + 1, number);
        default -> throw new IllegalArgumentException("cannot bind " + value.getClass());
      }
    }
  }
}
