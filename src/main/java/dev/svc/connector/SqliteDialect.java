package dev.svc.connector;

import dev.svc.model.ConnectorKind;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sqlite.JDBC;
import org.sqlite.SQLiteOpenMode;
import org.sqlite.core.CoreResultSet;

/**
 * Local SQLite through sqlite-jdbc (remote libSQL is another connector).
 *
 * <p>Connection strings: {@code :memory:}; {@code file:./x.db} or a plain relative path, resolved
 * against the project directory (never the working directory); an absolute path or {@code
 * file:/abs/x.db}. Query parameters of a {@code file:} URI ({@code ?mode=ro}) stay on the URI.
 * Options are passed to sqlite-jdbc as written (its pragma names, such as {@code foreign_keys} or
 * {@code busy_timeout}); the remote-only ones ({@code authToken}, {@code sync_interval}, …) are
 * ignored, and {@code max_connections} sizes the pool.
 *
 * <p>Files use WAL with {@code synchronous=NORMAL} and a 5 s busy time-out, and a pool of {@value
 * #DEFAULT_FILE_POOL_SIZE}: readers run in parallel and never block the writer (measured through
 * this connector: 40k point reads took 1.0–1.1 s on 4 connections against 1.8 s on 1). The first
 * connection opens alone, since several switching a new file to WAL at once fail with "database is
 * locked".
 *
 * <p>No string or blob longer than the result ceiling ({@link ResultMemory}) is read or made
 * ({@code limit_length}, SQLite's {@code SQLITE_LIMIT_LENGTH}): sqlite-jdbc copies a value whole
 * onto the heap, so a 200 MB blob was in memory three times over (bytes, base64 and its copy)
 * before its row could be counted, and ended the process. The statement fails with {@code
 * SQLITE_TOOBIG}, answered as the ceiling's refusal.
 *
 * <p>{@code :memory:} is one database per adapter that every pool connection sees: it lives in
 * SQLite's {@code memdb} VFS under a unique name, and an anchor connection keeps it alive while
 * pool connections come and go. The shared-cache form ({@code mode=memory&cache=shared}) was
 * measured failing 6 of 8 thousand statements from 4 connections with {@code
 * SQLITE_LOCKED_SHAREDCACHE}, which no busy time-out waits for; memdb takes real locks, so the busy
 * time-out works. Its pool still defaults to {@value #DEFAULT_MEMORY_POOL_SIZE}: memdb has no WAL,
 * so readers and writers wait for each other through SQLite's busy sleeps. Measured on this shared
 * 2-core machine, 4 connections ran a write-heavy load ~7× slower per statement than 1 and
 * read-only loads gained 0–1.6× (noisy). {@code max_connections} raises it for read-mostly
 * databases.
 */
final class SqliteDialect implements SqlDialect {
  static final SqliteDialect INSTANCE = new SqliteDialect();
  static final int DEFAULT_FILE_POOL_SIZE = 4;
  static final int DEFAULT_MEMORY_POOL_SIZE = 1;
  private static final Driver DRIVER = new JDBC();
  private static final Set<String> REMOTE_ONLY =
      Set.of("authToken", "auth_token", "jwt", "sync_interval", "tls");
  private static final Pattern MESSAGE =
      Pattern.compile("^\\[SQLITE_[A-Z_]+\\][^(]*\\((.*)\\)$", Pattern.DOTALL);
  private static final int SQLITE_INTERRUPT = 9;
  private static final int SQLITE_TOOBIG = 18;

  private SqliteDialect() {}

  @Override
  public ConnectorKind kind() {
    return ConnectorKind.SQLITE;
  }

  @Override
  public Driver driver() {
    return DRIVER;
  }

  @Override
  public JdbcSettings settings(ResolvedAdapter adapter) {
    String text = adapter.connectionString().strip();
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("busy_timeout", "5000");
    // A pool connection is used by one thread at a time, and sqlite-jdbc serialises its own calls
    // on a connection, so SQLite's per-connection mutex is pure cost: open without it
    // (SQLITE_OPEN_NOMUTEX; sqlite3_interrupt, our cancel, stays safe from other threads).
    properties.put(
        "open_mode",
        Integer.toString(
            SQLiteOpenMode.READWRITE.flag
                | SQLiteOpenMode.CREATE.flag
                | SQLiteOpenMode.NOMUTEX.flag));
    // svc never asks for generated keys; with this on, sqlite-jdbc matches every statement against
    // an INSERT pattern and runs `SELECT last_insert_rowid()` after each INSERT
    properties.put("jdbc.get_generated_keys", "false");
    // SQLite's own limit on one string or blob (SQLITE_LIMIT_LENGTH), read or made: the result
    // ceiling. sqlite-jdbc copies a value whole onto the heap, and its JSON (base64 for a blob)
    // takes more, before a row can be counted in the call's ResultMemory
    properties.put("limit_length", Long.toString(valueLimit(ResultMemory.process())));
    boolean memory =
        text.equals(":memory:")
            || text.equals("file::memory:")
            || text.startsWith(":memory:?")
            || text.startsWith("file::memory:?");
    String url;
    String location;
    if (memory) {
      url = "jdbc:sqlite:file:/svc-memory-" + UUID.randomUUID() + "?vfs=memdb";
      location = "an in-memory database";
    } else {
      Path file = file(text, adapter);
      String query =
          text.startsWith("file:") && text.indexOf('?') >= 0
              ? text.substring(text.indexOf('?') + 1)
              : "";
      url =
          query.isEmpty()
              ? "jdbc:sqlite:" + file
              : "jdbc:sqlite:file:" + file.toUri().getRawPath() + "?" + query;
      location = file.toString();
      properties.put("journal_mode", "WAL");
      properties.put("synchronous", "NORMAL");
    }
    for (Map.Entry<String, String> option : adapter.options().entrySet()) {
      if (!option.getKey().equals(ConnectionStrings.MAX_CONNECTIONS)
          && !option.getKey().equals(SEED)
          && !REMOTE_ONLY.contains(option.getKey())) {
        properties.put(option.getKey(), option.getValue());
      }
    }
    int poolSize =
        ConnectionStrings.poolSize(
            adapter.name(),
            adapter.options(),
            memory ? DEFAULT_MEMORY_POOL_SIZE : DEFAULT_FILE_POOL_SIZE);
    return new JdbcSettings(
        url, properties, poolSize, location, Optional.empty(), memory, Duration.ZERO);
  }

  /** The longest string or blob SQLite makes or reads: the ceiling of one result. */
  static long valueLimit(ResultMemory memory) {
    return Math.min(Integer.MAX_VALUE, memory.ceilingBytes());
  }

  /** Option naming a SQL script that creates a database file that does not exist yet. */
  static final String SEED = "seed";

  /**
   * Creates the database file from the {@code seed} script when the file does not exist yet (an svc
   * extension, e.g. for examples and demos). The script runs into a file of its own beside it, in
   * one transaction, which then takes the database's name only if nothing has taken it meanwhile (a
   * hard link, which fails when the name exists): instances starting together on one file seed it
   * once, none fails, and a failing script leaves no half-made file behind nor removes the database
   * another instance made.
   */
  @Override
  public void prepare(ResolvedAdapter adapter, JdbcSettings settings) {
    String seed = adapter.options().get(SEED);
    if (seed == null || settings.anchored()) {
      return;
    }
    Path file = file(adapter.connectionString().strip(), adapter);
    if (Files.exists(file)) {
      return;
    }
    Path script = adapter.projectDirectory().resolve(seed).normalize();
    String sql;
    try {
      sql = Files.readString(script);
    } catch (IOException e) {
      throw new ConnectorUnavailableException(
          "sqlite adapter `" + adapter.name() + "` cannot read its seed script " + seed, e);
    }
    Path seeding =
        file.resolveSibling(
            file.getFileName()
                + ".seeding-"
                + ProcessHandle.current().pid()
                + "-"
                + Long.toHexString(System.nanoTime()));
    try {
      try (Connection connection = DRIVER.connect("jdbc:sqlite:" + seeding, new Properties());
          Statement statement = connection.createStatement()) {
        connection.setAutoCommit(false);
        statement.executeUpdate(sql);
        connection.commit();
      } catch (SQLException e) {
        throw new ConnectorUnavailableException(
            "sqlite adapter `"
                + adapter.name()
                + "`: the seed script "
                + seed
                + " failed: "
                + message(e),
            e);
      }
      takeName(seeding, file, adapter);
    } finally {
      for (String suffix : new String[] {"", "-journal", "-wal", "-shm"}) {
        try {
          Files.deleteIfExists(seeding.resolveSibling(seeding.getFileName() + suffix));
        } catch (IOException ignored) {
          // best effort: a leftover is named .seeding-<pid>-… and harms nothing
        }
      }
    }
  }

  /** Gives the seeded file the database's name, unless another start gave it one first. */
  private static void takeName(Path seeded, Path file, ResolvedAdapter adapter) {
    try {
      Files.createLink(file, seeded);
    } catch (FileAlreadyExistsException e) {
      // another instance seeded it first: its database is the one
    } catch (UnsupportedOperationException | IOException e) {
      try {
        Files.move(seeded, file); // no hard links here: a move that does not replace
      } catch (FileAlreadyExistsException taken) {
        // another instance seeded it first
      } catch (IOException moving) {
        throw new ConnectorUnavailableException(
            "sqlite adapter `"
                + adapter.name()
                + "`: cannot create the database file "
                + file
                + ": "
                + moving.getMessage(),
            moving);
      }
    }
  }

  /** The database file: absolute, or relative to the data directory (docs/deploy.md). */
  static Path file(String text, ResolvedAdapter adapter) {
    String path = text;
    if (path.contains("://") && !path.startsWith("file://")) {
      throw new ConnectorUnavailableException(
          "the connection string of sqlite adapter `"
              + adapter.name()
              + "` is not a local path: write :memory:, file:./<path>.db or an absolute path");
    }
    if (path.startsWith("file:")) {
      path = path.substring("file:".length());
      int query = path.indexOf('?');
      path = query < 0 ? path : path.substring(0, query);
      if (path.startsWith("//")) { // file://[localhost]/abs/path
        int slash = path.indexOf('/', 2);
        String host = slash < 0 ? path.substring(2) : path.substring(2, slash);
        if (!host.isEmpty() && !host.equals("localhost")) {
          throw new ConnectorUnavailableException(
              "sqlite adapter `" + adapter.name() + "` names a file on host `" + host + "`");
        }
        path = slash < 0 ? "" : path.substring(slash);
      }
      path = ConnectionStrings.percentDecode(path);
    }
    if (path.isBlank()) {
      throw new ConnectorUnavailableException(
          "the connection string of sqlite adapter `" + adapter.name() + "` names no file");
    }
    try {
      Path file = Path.of(path);
      return (file.isAbsolute() ? file : adapter.dataDirectory().resolve(file))
          .toAbsolutePath()
          .normalize();
    } catch (InvalidPathException e) {
      throw new ConnectorUnavailableException(
          "sqlite adapter `" + adapter.name() + "` names an invalid path: " + e.getReason());
    }
  }

  @Override
  public ColumnKind columnKind(ResultSetMetaData meta, int column) {
    return ColumnKind.DYNAMIC; // SQLite types values, not columns
  }

  /**
   * sqlite-jdbc reads every column name when a statement yields its result set and keeps them in
   * {@link CoreResultSet#cols}; asking the metadata again costs a JNI call per column.
   */
  @Override
  public String[] columnLabels(ResultSet rows, ResultSetMetaData meta) throws SQLException {
    if (rows instanceof CoreResultSet sqlite
        && sqlite.cols != null
        && sqlite.cols.length == meta.getColumnCount()) {
      return sqlite.cols.clone();
    }
    return SqlDialect.super.columnLabels(rows, meta);
  }

  /**
   * sqlite-jdbc's {@code getColumnCount()} throws ("column 1 out of bounds [1,0]") for a prepared
   * statement without columns (an INSERT); the column names it read at prepare time tell.
   */
  @Override
  public int columnCount(ResultSetMetaData meta) throws SQLException {
    if (meta instanceof CoreResultSet sqlite && sqlite.colsMeta != null) {
      return sqlite.colsMeta.length;
    }
    return SqlDialect.super.columnCount(meta);
  }

  /** {@code no such table: x} out of sqlite-jdbc's {@code [SQLITE_ERROR] SQL error … (…)}. */
  @Override
  public String message(SQLException e) {
    String message = SqlDialect.firstLine(e.getMessage());
    Matcher m = e.getMessage() == null ? null : MESSAGE.matcher(e.getMessage().strip());
    return m != null && m.matches() ? SqlDialect.firstLine(m.group(1)) : message;
  }

  @Override
  public boolean isConnectionLost(SQLException e) {
    return SqlDialect.super.isConnectionLost(e)
        || (e.getMessage() != null && e.getMessage().contains("database connection closed"));
  }

  /**
   * SQLite has no read-only transaction; {@code PRAGMA query_only} makes the connection refuse
   * every write ({@code attempt to write a readonly database}) until it is turned off again. Both
   * are calls into the library on this connection, not round trips.
   */
  @Override
  public void beginReadOnly(Connection connection) throws SQLException {
    SqlDialect.command(connection, "PRAGMA query_only = 1");
  }

  @Override
  public void endReadOnly(Connection connection) throws SQLException {
    SqlDialect.command(connection, "PRAGMA query_only = 0");
  }

  @Override
  public boolean isCancellation(SQLException e) {
    return (e.getErrorCode() & 0xff) == SQLITE_INTERRUPT
        || (e.getMessage() != null && e.getMessage().startsWith("[SQLITE_INTERRUPT]"));
  }

  /** A string or blob past {@code limit_length} ({@link #valueLimit}): the result ceiling's. */
  @Override
  public boolean isResultTooLarge(SQLException e) {
    return (e.getErrorCode() & 0xff) == SQLITE_TOOBIG
        || (e.getMessage() != null && e.getMessage().startsWith("[SQLITE_TOOBIG]"));
  }

  /** Measured: four connections opening a new file at once fail with "database is locked". */
  @Override
  public boolean opensFirstConnectionAlone() {
    return true;
  }

  /** SQLite has no date types: date-times are ISO-8601 text, which its date functions read. */
  @Override
  public void bindDateTime(PreparedStatement statement, int index, OffsetDateTime value)
      throws SQLException {
    statement.setString(index, JsonValues.iso(value));
  }

  @Override
  public void bindDate(PreparedStatement statement, int index, LocalDate value)
      throws SQLException {
    statement.setString(index, JsonValues.iso(value));
  }
}
