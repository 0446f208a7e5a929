package dev.svc.protocol.a2a;

import dev.svc.connector.ResolvedAdapter;
import dev.svc.connector.StateConnections;
import dev.svc.log.Log;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Tasks in PostgreSQL, shared by every instance that names the same adapter in {@code
 * agents.tasks.store}. The tables ({@code svc_a2a_*}) are created on first use, under an advisory
 * lock, and versioned in {@code svc_a2a_schema}. Live events travel by {@code LISTEN/NOTIFY} on the
 * channel {@value #CHANNEL}: a notification only says which task changed ({@code e <id>}) or which
 * to cancel ({@code c <id>}); the events themselves are rows, so none is lost to the 8000-byte
 * payload limit and a listener that reconnects reads what it missed.
 *
 * <p>Every value is bound as a statement parameter. Statements run on a small pool of connections
 * ({@code max_connections} of the adapter, default 8) of their own, plus one that listens.
 */
public final class PostgresTaskStore implements TaskStore, SharedTasks {
  private static final Log LOG = Log.tagged("a2a:tasks");

  /** The version of the tables this class reads and writes. */
  public static final int SCHEMA_VERSION = PostgresTaskSchema.VERSION;

  static final String CHANNEL = "svc_a2a";

  private static final String COLUMNS = "body";

  private final String description;
  private final Settings settings;
  private final String instance = UUID.randomUUID().toString();
  private final PostgresTaskConnections connections;
  private final PostgresPushConfigs pushConfigs;
  private final PostgresMessageClaims claims;
  private final PostgresTaskEvents events;
  private final PostgresTaskPages pages;
  private final TaskSignals signals = new TaskSignals();
  private final Set<String> owned = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;
  private final Thread listener;
  private final Thread housekeeper;

  /**
   * Connects, creates or checks the tables, and starts listening.
   *
   * @throws TaskStoreException when the database cannot be reached or holds a newer schema
   */
  public PostgresTaskStore(ResolvedAdapter adapter, Settings settings) {
    this.settings = settings;
    this.description =
        "the task store (postgres adapter `"
            + adapter.name()
            + "` at "
            + StateConnections.postgresLocation(adapter)
            + ")";
    this.connections = new PostgresTaskConnections(adapter, description);
    try {
      PostgresTaskSchema.create(connections, description);
    } catch (RuntimeException e) {
      connections.close(); // the connection that found a newer schema (or none) is not kept
      throw e;
    }
    this.pushConfigs = new PostgresPushConfigs(connections);
    this.claims = new PostgresMessageClaims(connections);
    this.events = new PostgresTaskEvents(connections);
    this.pages = new PostgresTaskPages(connections);
    this.listener = TaskStoreListener.start(description, () -> closed, this::listen);
    this.housekeeper =
        TaskHousekeeping.start(
            settings,
            description,
            () -> closed,
            new TaskHousekeeping.Chores(this::renew, this::failExpired, this::deleteFinished));
  }

  @Override
  public Optional<SharedTasks> shared() {
    return Optional.of(this);
  }

  @Override
  public String instance() {
    return instance;
  }

  // ---- tasks

  private static final String UPSERT =
      """
      INSERT INTO svc_a2a_tasks AS t
        (id, agent, principal, context_id, state, terminal, status_ms, seq, body, owner,
         lease_until, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
        CASE WHEN ? THEN now() + make_interval(secs => ?) END, now())
      ON CONFLICT (id) DO UPDATE SET state = excluded.state, terminal = excluded.terminal,
        status_ms = excluded.status_ms, seq = greatest(t.seq, excluded.seq), body = excluded.body,
        owner = coalesce(excluded.owner, t.owner),
        lease_until = CASE WHEN excluded.terminal THEN NULL
          ELSE coalesce(excluded.lease_until, t.lease_until) END,
        updated_at = now()
      WHERE NOT t.terminal AND t.agent = excluded.agent AND t.principal = excluded.principal\
      """;

  @Override
  public void save(Scope scope, Task task) {
    upsert(scope, task, 0, false);
  }

  @Override
  public boolean saveRun(Scope scope, Task task, long seq) {
    if (task.status().state().isTerminal()) {
      // ended here; a save that fails (throws) keeps the task owned, its lease renewed, while
      // the run saves it again, so that no instance takes it for one whose instance died
      boolean saved = upsert(scope, task, seq, true);
      owned.remove(task.id());
      return saved;
    }
    boolean saved = upsert(scope, task, seq, true);
    if (saved) {
      owned.add(task.id());
    } else {
      owned.remove(task.id());
    }
    return saved;
  }

  private boolean upsert(Scope scope, Task task, long seq, boolean run) {
    boolean terminal = task.status().state().isTerminal();
    String body = StoredTasks.json(task.toJson());
    return connections.run(
        "save task " + task.id(),
        c -> {
          try (PreparedStatement s = c.prepareStatement(UPSERT)) {
            s.setString(1, task.id());
            s.setString(2, scope.agent());
            s.setString(3, scope.principal().id());
            s.setString(4, task.contextId());
            s.setString(5, task.status().state().name());
            s.setBoolean(6, terminal);
            s.setLong(7, task.status().timestamp().toEpochMilli());
            s.setLong(8, seq);
            s.setString(9, body);
            s.setString(10, run ? instance : null);
            s.setBoolean(11, run && !terminal);
            s.setDouble(12, settings.lease().toMillis() / 1000.0);
            return s.executeUpdate() == 1;
          }
        });
  }

  @Override
  public Optional<Task> find(Scope scope, String taskId) {
    return snapshot(scope, taskId).map(Snapshot::task);
  }

  @Override
  public Optional<Snapshot> snapshot(Scope scope, String taskId) {
    return connections.run(
        "read task " + taskId,
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT body, seq, lease_until > now() FROM svc_a2a_tasks"
                      + " WHERE id = ? AND agent = ? AND principal = ?")) {
            s.setString(1, taskId);
            s.setString(2, scope.agent());
            s.setString(3, scope.principal().id());
            try (ResultSet rs = s.executeQuery()) {
              if (!rs.next()) {
                return Optional.empty();
              }
              return Optional.of(
                  new Snapshot(StoredTasks.task(rs.getString(1)), rs.getLong(2), rs.getBoolean(3)));
            }
          }
        });
  }

  @Override
  public List<Task> context(Scope scope, String contextId) {
    return connections.run(
        "read context " + contextId,
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  // the latest tasks whose bodies fit the budget (the newest always), oldest first
                  "SELECT "
                      + COLUMNS
                      + " FROM (SELECT body, created, sum(octet_length(body)) OVER"
                      + " (ORDER BY created DESC ROWS UNBOUNDED PRECEDING) - octet_length(body)"
                      + " AS before FROM svc_a2a_tasks WHERE agent = ? AND principal = ? AND"
                      + " context_id = ?) latest WHERE before < ? ORDER BY created")) {
            s.setString(1, scope.agent());
            s.setString(2, scope.principal().id());
            s.setString(3, contextId);
            s.setLong(4, MAX_READ_BYTES);
            return tasks(s);
          }
        });
  }

  @Override
  public Page list(Scope scope, Query query) {
    return pages.list(scope, query);
  }

  // ---- push configs

  @Override
  public Optional<String> claimMessage(Scope scope, String messageId, String taskId) {
    return claims.claim(scope, messageId, taskId);
  }

  @Override
  public void releaseMessage(Scope scope, String messageId, String taskId) {
    claims.release(scope, messageId, taskId);
  }

  @Override
  public void savePushConfig(Scope scope, PushConfig config) {
    pushConfigs.save(scope, config);
  }

  @Override
  public List<PushConfig> pushConfigs(Scope scope, String taskId) {
    return pushConfigs.of(scope, taskId);
  }

  @Override
  public boolean deletePushConfig(Scope scope, String taskId, String configId) {
    return pushConfigs.delete(scope, taskId, configId);
  }

  // ---- events

  @Override
  public void append(String taskId, long seq, StreamResponse event) {
    events.append(taskId, seq, event);
  }

  @Override
  public List<Event> events(String taskId, long after) {
    return events.after(taskId, after);
  }

  @Override
  public Listening listen(String taskId, Runnable changed) {
    return signals.listen(taskId, changed);
  }

  @Override
  public void requestCancel(String taskId) {
    notify(TaskSignals.cancel(taskId));
  }

  @Override
  public void onCancelRequest(Consumer<String> handler) {
    signals.onCancelRequest(handler);
  }

  private void notify(String payload) {
    connections.run(
        "send a notification",
        c -> {
          try (PreparedStatement s = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            s.setString(1, CHANNEL);
            s.setString(2, payload);
            s.execute();
            return null;
          }
        });
  }

  /** One listening session on a connection of its own; each reconnection wakes every listener. */
  private void listen(Runnable connected) throws SQLException {
    try (Connection c = connections.open()) {
      try (Statement s = c.createStatement()) {
        s.execute("LISTEN " + CHANNEL);
      }
      connected.run();
      signals.wakeAll(); // anything sent while no connection listened is read again
      PGConnection pg = c.unwrap(PGConnection.class);
      while (!closed) {
        PGNotification[] notifications = pg.getNotifications(500);
        if (notifications == null) {
          continue;
        }
        for (PGNotification n : notifications) {
          signals.dispatch(n.getParameter());
        }
      }
    }
  }

  // ---- leases and retention

  @Override
  public Optional<Task> end(Scope scope, String taskId, TaskStatus status, boolean onlyUnleased) {
    return connections.run(
        "end task " + taskId,
        c -> {
          owned.remove(taskId);
          c.setAutoCommit(false);
          try {
            Optional<Task> ended = PostgresTaskEnd.run(c, scope, taskId, status, onlyUnleased);
            c.commit();
            return ended;
          } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
          } finally {
            c.setAutoCommit(true);
          }
        });
  }

  @Override
  public int failExpired() {
    record Expired(String id, Scope scope) {}
    List<Expired> expired =
        connections.run(
            "find expired leases",
            c -> {
              try (PreparedStatement s =
                  c.prepareStatement(
                      "SELECT id, agent, principal FROM svc_a2a_tasks"
                          + " WHERE NOT terminal AND lease_until <= now() LIMIT 100")) {
                List<Expired> found = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                  while (rs.next()) {
                    found.add(
                        new Expired(
                            rs.getString(1),
                            new Scope(
                                rs.getString(2), new dev.svc.auth.Principal(rs.getString(3)))));
                  }
                }
                return found;
              }
            });
    int failed = 0;
    for (Expired task : expired) {
      TaskStatus status =
          new TaskStatus(
              TaskState.FAILED,
              Optional.empty(),
              java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
      Optional<Task> found = find(task.scope(), task.id());
      if (found.isEmpty()) {
        continue;
      }
      status =
          new TaskStatus(
              TaskState.FAILED,
              Optional.of(
                  Message.agent(SharedTasks.expiredMessage(), found.get().contextId(), task.id())),
              status.timestamp());
      if (end(task.scope(), task.id(), status, true).isPresent()) {
        failed++;
        LOG.warn("task failed: its instance stopped renewing its lease", "task", task.id());
      }
    }
    return failed;
  }

  @Override
  public int deleteFinished() {
    int deleted = deleteFinishedTasks();
    claims.deleteExpired(settings.retention());
    return deleted;
  }

  private int deleteFinishedTasks() {
    return connections.run(
        "delete finished tasks",
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "DELETE FROM svc_a2a_tasks WHERE terminal"
                      + " AND updated_at < now() - make_interval(secs => ?)")) {
            s.setDouble(1, settings.retention().toMillis() / 1000.0);
            return s.executeUpdate();
          }
        });
  }

  /** Renews the leases of the tasks this instance runs, in one statement. */
  private void renew() {
    if (owned.isEmpty()) {
      return;
    }
    String[] ids = owned.toArray(String[]::new);
    connections.run(
        "renew leases",
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "UPDATE svc_a2a_tasks SET lease_until = now() + make_interval(secs => ?)"
                      + " WHERE id = ANY (?) AND owner = ? AND NOT terminal")) {
            s.setDouble(1, settings.lease().toMillis() / 1000.0);
            s.setArray(2, c.createArrayOf("text", ids));
            s.setString(3, instance);
            return s.executeUpdate();
          }
        });
  }

  private static List<Task> tasks(PreparedStatement s) throws SQLException {
    List<Task> tasks = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        tasks.add(StoredTasks.task(rs.getString(1)));
      }
    }
    return tasks;
  }

  @Override
  public void close() {
    closed = true;
    listener.interrupt();
    housekeeper.interrupt();
    connections.close();
  }

  @Override
  public String toString() {
    return description;
  }
}
