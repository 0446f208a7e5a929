package dev.svc.protocol.a2a;

import dev.svc.connector.ResolvedAdapter;
import dev.svc.connector.StateConnections;
import dev.svc.json.Json;
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
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

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
  public static final int SCHEMA_VERSION = 1;

  static final String CHANNEL = "svc_a2a";
  private static final long SCHEMA_LOCK = 0x5356_4332_4131L; // "SVC2A1": one per database
  private static final long POOL_WAIT_MILLIS = 5_000;
  private static final int MAX_EVENTS = 1_000;

  private static final String COLUMNS = "body";

  private final String description;
  private final ResolvedAdapter adapter;
  private final Settings settings;
  private final String instance = UUID.randomUUID().toString();
  private final Semaphore permits;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
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
    this.adapter = adapter;
    this.settings = settings;
    this.description =
        "the task store (postgres adapter `"
            + adapter.name()
            + "` at "
            + StateConnections.postgresLocation(adapter)
            + ")";
    this.permits = new Semaphore(StateConnections.postgresPoolSize(adapter));
    createSchema();
    this.listener = Thread.ofPlatform().daemon().name("svc-a2a-listen").start(this::listen);
    this.housekeeper =
        Thread.ofPlatform()
            .daemon()
            .name("svc-a2a-leases")
            .start(() ->
                TaskHousekeeping.run(
                    settings,
                    description,
                    () -> closed,
                    this::renew,
                    this::failExpired,
                    this::deleteFinished));
  }

  @Override
  public Optional<SharedTasks> shared() {
    return Optional.of(this);
  }

  @Override
  public String instance() {
    return instance;
  }

  // ---- schema

  private void createSchema() {
    run(
        "create its tables",
        c -> {
          c.setAutoCommit(false);
          try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK + ")");
            s.execute("CREATE TABLE IF NOT EXISTS svc_a2a_schema (version integer NOT NULL)");
            int version = 0;
            try (ResultSet rs = s.executeQuery("SELECT max(version) FROM svc_a2a_schema")) {
              if (rs.next()) {
                version = rs.getInt(1);
              }
            }
            if (version > SCHEMA_VERSION) {
              throw new TaskStoreException(
                  description
                      + " holds tables of schema version "
                      + version
                      + ", written by a newer svc; this one reads version "
                      + SCHEMA_VERSION
                      + ": upgrade every instance, or name another database");
            }
            if (version == 0) {
              for (String ddl : SCHEMA_1) {
                s.execute(ddl);
              }
              s.execute("INSERT INTO svc_a2a_schema (version) VALUES (" + SCHEMA_VERSION + ")");
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
      owned.remove(task.id()); // ended here: its lease is not renewed even if this save fails
      return upsert(scope, task, seq, true);
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
    String body = json(task.toJson());
    return run(
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
    return run(
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
                  new Snapshot(task(rs.getString(1)), rs.getLong(2), rs.getBoolean(3)));
            }
          }
        });
  }

  @Override
  public List<Task> context(Scope scope, String contextId) {
    return run(
        "read context " + contextId,
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT "
                      + COLUMNS
                      + " FROM svc_a2a_tasks WHERE agent = ? AND principal = ? AND context_id = ?"
                      + " ORDER BY created")) {
            s.setString(1, scope.agent());
            s.setString(2, scope.principal().id());
            s.setString(3, contextId);
            return tasks(s);
          }
        });
  }

  @Override
  public Page list(Scope scope, Query query) {
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
    return run(
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
          List<Task> tasks;
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT "
                      + COLUMNS
                      + " FROM svc_a2a_tasks"
                      + page
                      + " ORDER BY status_ms DESC, id DESC LIMIT ?")) {
            bind(s, pageValues);
            tasks = tasks(s);
          }
          if (tasks.size() <= query.pageSize()) {
            return new Page(tasks, total, Optional.empty());
          }
          List<Task> shown = List.copyOf(tasks.subList(0, query.pageSize()));
          Task last = shown.getLast();
          return new Page(
              shown, total, Optional.of(new Cursor(last.status().timestamp(), last.id())));
        });
  }

  // ---- push configs

  @Override
  public void savePushConfig(Scope scope, PushConfig config) {
    run(
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
            s.setString(2, json(config.toJson()));
            s.setString(3, config.taskId());
            s.setString(4, scope.agent());
            s.setString(5, scope.principal().id());
            return s.executeUpdate();
          }
        });
  }

  @Override
  public List<PushConfig> pushConfigs(Scope scope, String taskId) {
    return run(
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
                configs.add(PushConfig.fromJson(parse(rs.getString(1)), "stored push config"));
              }
            }
            return configs;
          }
        });
  }

  @Override
  public boolean deletePushConfig(Scope scope, String taskId, String configId) {
    return run(
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

  // ---- events

  @Override
  public void append(String taskId, long seq, StreamResponse event) {
    boolean terminal =
        event instanceof StreamResponse.StatusUpdate update && update.status().state().isTerminal();
    String body = json(event.toJson());
    run(
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
            s.setString(5, CHANNEL);
            s.setString(6, TaskSignals.changed(taskId));
            s.execute();
            return null;
          }
        });
  }

  @Override
  public List<Event> events(String taskId, long after) {
    return run(
        "read the events of task " + taskId,
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT seq, terminal, body FROM svc_a2a_events WHERE task_id = ? AND seq > ?"
                      + " ORDER BY seq LIMIT "
                      + MAX_EVENTS)) {
            s.setString(1, taskId);
            s.setLong(2, after);
            List<Event> events = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
              while (rs.next()) {
                events.add(
                    new Event(
                        rs.getLong(1), (ObjectNode) parse(rs.getString(3)), rs.getBoolean(2)));
              }
            }
            return events;
          }
        });
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
    run(
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

  /** The listening connection: reconnects after a failure, then wakes every listener. */
  private void listen() {
    long backoff = 200;
    while (!closed) {
      try (Connection c = StateConnections.postgres(adapter)) {
        try (Statement s = c.createStatement()) {
          s.execute("LISTEN " + CHANNEL);
        }
        backoff = 200;
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
      } catch (SQLException | RuntimeException e) {
        if (closed) {
          return;
        }
        LOG.warn(
            "task store listener lost its connection; reconnecting",
            "store",
            description,
            "error",
            firstLine(e));
        try {
          Thread.sleep(backoff);
        } catch (InterruptedException interrupted) {
          return;
        }
        backoff = Math.min(backoff * 2, 5_000);
      }
    }
  }

  // ---- leases and retention

  @Override
  public Optional<Task> end(Scope scope, String taskId, TaskStatus status, boolean onlyUnleased) {
    return run(
        "end task " + taskId,
        c -> {
          owned.remove(taskId);
          c.setAutoCommit(false);
          try {
            Optional<Task> ended = end(c, scope, taskId, status, onlyUnleased);
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

  private Optional<Task> end(
      Connection c, Scope scope, String taskId, TaskStatus status, boolean onlyUnleased)
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
        task = task(rs.getString(1));
      }
    }
    Task ended = ended(task, status);
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
      s.setString(3, json(ended.toJson()));
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
          3, json(new StreamResponse.StatusUpdate(taskId, task.contextId(), status).toJson()));
      s.setString(4, CHANNEL);
      s.setString(5, TaskSignals.changed(taskId));
      s.execute();
    }
    return Optional.of(ended);
  }

  /** The task with a terminal status; the status's message joins the history, as a run does. */
  static Task ended(Task task, TaskStatus status) {
    List<Message> history = new ArrayList<>(task.history());
    status.message().ifPresent(history::add);
    return task.withStatus(status).withHistory(history);
  }

  @Override
  public int failExpired() {
    record Expired(String id, Scope scope) {}
    List<Expired> expired =
        run(
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
    return run(
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
    run(
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

  // ---- connections

  @FunctionalInterface
  private interface Work<T> {
    T apply(Connection connection) throws SQLException;
  }

  /** Runs on a pooled connection; a failure is a {@link TaskStoreException} naming the store. */
  private <T> T run(String what, Work<T> work) {
    if (closed) {
      throw new TaskStoreException(description + " is closed");
    }
    try {
      if (!permits.tryAcquire(POOL_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
        throw new TaskStoreException(
            description + " could not " + what + ": every connection stayed busy for 5 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TaskStoreException(description + " could not " + what + ": interrupted");
    }
    Connection connection = null;
    boolean healthy = false;
    try {
      connection = idle.pollFirst();
      if (connection == null) {
        connection = StateConnections.postgres(adapter);
      }
      T result = work.apply(connection);
      healthy = true;
      return result;
    } catch (SQLException e) {
      healthy = connection != null && !isBroken(e);
      throw new TaskStoreException(description + " could not " + what + ": " + firstLine(e), e);
    } catch (RuntimeException e) {
      healthy = connection != null; // not the connection's fault (a newer schema, a bad row)
      throw e;
    } finally {
      if (connection != null) {
        if (healthy && !closed) {
          idle.offerFirst(connection);
        } else {
          closeQuietly(connection);
        }
      }
      permits.release();
    }
  }

  /** A connection-class failure (SQLSTATE 08…) or a dead socket: the connection is not reused. */
  private static boolean isBroken(SQLException e) {
    String state = e.getSQLState();
    return state == null || state.startsWith("08") || state.startsWith("57P");
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException | RuntimeException e) {
      // best effort
    }
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

  private static List<Task> tasks(PreparedStatement s) throws SQLException {
    List<Task> tasks = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        tasks.add(task(rs.getString(1)));
      }
    }
    return tasks;
  }

  static Task task(String body) {
    return Task.fromJson(parse(body), "stored task");
  }

  static JsonNode parse(String body) {
    return Json.MAPPER.readTree(body);
  }

  static String json(JsonNode node) {
    return Json.MAPPER.writeValueAsString(node);
  }

  private static String firstLine(Exception e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  @Override
  public void close() {
    closed = true;
    listener.interrupt();
    housekeeper.interrupt();
    Connection c;
    while ((c = idle.pollFirst()) != null) {
      closeQuietly(c);
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
