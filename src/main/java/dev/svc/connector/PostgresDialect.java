package dev.svc.connector;

import dev.svc.model.ConnectorKind;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.core.BaseConnection;
import org.postgresql.util.PGobject;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * PostgreSQL through pgjdbc.
 *
 * <p>{@code postgresql://user:password@host:port/database?param=value} (or {@code postgres://})
 * becomes {@code jdbc:postgresql://host:port/database}; user and password (percent-decoded) go in
 * the driver properties, never in the URL. libpq parameter names are translated: {@code
 * connect_timeout} (seconds) → {@code connectTimeout} and {@code loginTimeout}, {@code
 * application_name} → {@code ApplicationName}, {@code target_session_attrs} → {@code
 * targetServerType}; {@code sslmode} and every other parameter or option is passed to the driver as
 * written. Options win over query parameters.
 *
 * <p>Defaults: a pool of {@value #DEFAULT_POOL_SIZE} connections (the size that served best in
 * performance.md), connect time-out 10 s, application name {@code svc}, TCP keep-alive, and {@code
 * stringtype=unspecified}: string inputs are sent untyped, so the server types them by where they
 * are used (a uuid, date or jsonb column accepts a string input). The flip side: a placeholder with
 * nothing to type it, such as {@code {{ inputs.x }} IS NULL}, fails to prepare; the connector then
 * binds that parameter as {@code text} (see {@link #untypedParameter}) and remembers to for the
 * statement; {@code stringtype=varchar} as an option restores pgjdbc's default. Integer inputs bind
 * as {@code bigint}: comparisons with integer columns work as they are, but a function taking
 * {@code integer} needs {@code CAST({{ inputs.n }} AS INTEGER)}. {@code maxResultBuffer} (what
 * pgjdbc may buffer of one round trip's rows) is the result ceiling of {@link ResultMemory}.
 */
final class PostgresDialect implements SqlDialect {
  static final PostgresDialect INSTANCE = new PostgresDialect();
  static final int DEFAULT_POOL_SIZE = 8;

  /**
   * Windows of at most this many rows are read in one round trip, the server stopping at the
   * window's end (the row limit of the protocol's Execute message, {@code setMaxRows}); larger ones
   * through a cursor.
   */
  static final int DIRECT_ROWS = 10_000;

  /** Rows per round trip when a result is read through a cursor. */
  static final int FETCH_ROWS = 1_000;

  private static final String BUFFER_LIMIT = "Result set exceeded maxResultBuffer limit";
  private static final Driver DRIVER = new org.postgresql.Driver();
  private static final Pattern UNTYPED_PARAMETER =
      Pattern.compile("could not determine data type of parameter \\$([0-9]{1,5})");

  private PostgresDialect() {}

  @Override
  public ConnectorKind kind() {
    return ConnectorKind.POSTGRES;
  }

  @Override
  public Driver driver() {
    return DRIVER;
  }

  @Override
  public JdbcSettings settings(ResolvedAdapter adapter) {
    String text = adapter.connectionString().strip();
    String afterScheme;
    if (text.startsWith("postgresql://")) {
      afterScheme = text.substring("postgresql://".length());
    } else if (text.startsWith("postgres://")) {
      afterScheme = text.substring("postgres://".length());
    } else {
      throw new ConnectorUnavailableException(
          "the connection string of postgres adapter `"
              + adapter.name()
              + "` must start with postgresql:// or postgres://");
    }
    ConnectionStrings.UrlParts url = ConnectionStrings.url(afterScheme, 5432, adapter.name());
    Map<String, String> settings = new LinkedHashMap<>(url.query());
    settings.putAll(adapter.options());

    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("ApplicationName", "svc");
    properties.put("connectTimeout", "10");
    properties.put("loginTimeout", "10");
    properties.put("tcpKeepAlive", "true");
    properties.put("stringtype", "unspecified");
    // pgjdbc's own limit on the rows it buffers from one round trip: the result ceiling
    properties.put("maxResultBuffer", Long.toString(ResultMemory.process().ceilingBytes()));
    url.user().ifPresent(user -> properties.put("user", user));
    url.password().ifPresent(password -> properties.put("password", password));
    for (Map.Entry<String, String> setting : settings.entrySet()) {
      String value = setting.getValue();
      switch (setting.getKey()) {
        case ConnectionStrings.MAX_CONNECTIONS -> {} // the pool's, not the driver's
        case "connect_timeout" -> {
          String seconds = seconds(adapter.name(), value);
          properties.put("connectTimeout", seconds);
          properties.put("loginTimeout", seconds);
        }
        case "application_name" -> properties.put("ApplicationName", value);
        case "target_session_attrs" -> properties.put("targetServerType", serverType(value));
        default -> properties.put(setting.getKey(), value);
      }
    }
    // read_only tools rely on pgjdbc's BEGIN READ ONLY (beginReadOnly), which `ignore` turns off
    if ("ignore".equalsIgnoreCase(properties.get("readOnlyMode"))) {
      properties.put("readOnlyMode", "transaction");
    }
    String jdbcUrl =
        "jdbc:postgresql://"
            + url.hostList()
            + "/"
            + URLEncoder.encode(url.database(), StandardCharsets.UTF_8);
    return new JdbcSettings(
        jdbcUrl,
        properties,
        ConnectionStrings.poolSize(adapter.name(), settings, DEFAULT_POOL_SIZE),
        url.hostList(),
        Optional.ofNullable(properties.get("user")),
        false,
        connectTimeout(properties.get("connectTimeout")));
  }

  private static String seconds(String adapter, String value) {
    if (!value.strip().matches("[0-9]{1,6}")) {
      throw new ConnectorUnavailableException(
          "option connect_timeout of adapter `" + adapter + "` must be a whole number of seconds");
    }
    return value.strip();
  }

  private static Duration connectTimeout(String seconds) {
    try {
      return Duration.ofSeconds(Long.parseLong(seconds.strip()));
    } catch (NumberFormatException e) {
      return Duration.ZERO; // the driver will say what is wrong with it
    }
  }

  /** libpq's {@code target_session_attrs} values in pgjdbc's {@code targetServerType} words. */
  private static String serverType(String value) {
    return switch (value) {
      case "read-write", "primary" -> "primary";
      case "read-only", "standby" -> "secondary";
      case "prefer-standby" -> "preferSecondary";
      default -> value; // "any", or pgjdbc's own words
    };
  }

  @Override
  public ColumnKind columnKind(ResultSetMetaData meta, int column) throws SQLException {
    return switch (meta.getColumnTypeName(column)) {
      case "bool" -> ColumnKind.BOOLEAN;
      case "bit", "varbit", "money" -> ColumnKind.STRING;
      case "json", "jsonb" -> ColumnKind.JSON;
      case "timestamptz" -> ColumnKind.TIMESTAMPTZ;
      case "timetz" -> ColumnKind.OFFSET_TIME;
      default -> ColumnKind.standard(meta, column);
    };
  }

  @Override
  public boolean nonFiniteNumbers() {
    return true;
  }

  /**
   * pgjdbc opens the transaction itself: with autocommit off and the connection read-only, it sends
   * {@code BEGIN READ ONLY} in the same message flight as the statement ({@code readOnlyMode=
   * transaction} or {@code always}; {@link #settings} never lets it be {@code ignore}), so the
   * statement costs no extra round trip to begin; ending it is one ({@code ROLLBACK}).
   */
  @Override
  public void beginReadOnly(Connection connection) throws SQLException {
    connection.setAutoCommit(false);
    connection.setReadOnly(true);
  }

  @Override
  public void endReadOnly(Connection connection) throws SQLException {
    connection.rollback(); // nothing was written; a failed statement left the transaction aborted
    connection.setReadOnly(false);
    connection.setAutoCommit(true);
  }

  /**
   * pgjdbc reads a whole result into memory unless it reads through a cursor, which needs a
   * transaction (auto-commit off) and costs a round trip to commit. So: a window of at most {@value
   * #DIRECT_ROWS} rows (every capped call's first pages) is one round trip as before, with the
   * server told to stop at its end; a larger one (a deep page, caps off) goes through a cursor,
   * {@value #FETCH_ROWS} rows per round trip, the server also stopping at the window's end. Only a
   * query ({@code SELECT}, {@code WITH}, {@code VALUES}, {@code TABLE}) goes through a cursor: a
   * cursor needs a transaction, which some statements refuse ({@code VACUUM}, {@code CREATE INDEX
   * CONCURRENTLY}); other statements' rows ({@code RETURNING}) are read whole, within {@code
   * maxResultBuffer}. A read-only statement's cursor lives in its read-only transaction ({@link
   * #beginReadOnly}), which {@link #endReadOnly} ends.
   */
  @Override
  public boolean fetchAtMost(
      Connection connection, PreparedStatement statement, String sql, long rows)
      throws SQLException {
    statement.setMaxRows(rows <= Integer.MAX_VALUE ? (int) rows : 0);
    if (rows <= DIRECT_ROWS || !isQuery(sql)) {
      statement.setFetchSize(0);
      return false;
    }
    statement.setFetchSize(FETCH_ROWS);
    if (!connection.getAutoCommit()) {
      return false; // in a read-only transaction already: its end is endReadOnly's
    }
    connection.setAutoCommit(false);
    return true;
  }

  /**
   * Whether {@code sql} is a query: its first word, past blanks, comments and opening parentheses,
   * is {@code SELECT}, {@code WITH}, {@code VALUES} or {@code TABLE}.
   */
  static boolean isQuery(String sql) {
    int at = 0;
    int length = sql.length();
    while (at < length) {
      char c = sql.charAt(at);
      if (Character.isWhitespace(c) || c == '(') {
        at++;
      } else if (sql.startsWith("--", at)) {
        int eol = sql.indexOf('\n', at);
        at = eol < 0 ? length : eol + 1;
      } else if (sql.startsWith("/*", at)) {
        int end = sql.indexOf("*/", at + 2);
        at = end < 0 ? length : end + 2;
      } else {
        break;
      }
    }
    int end = at;
    while (end < length && Character.isLetter(sql.charAt(end))) {
      end++;
    }
    return switch (sql.substring(at, end).toUpperCase(Locale.ROOT)) {
      case "SELECT", "WITH", "VALUES", "TABLE" -> true;
      default -> false;
    };
  }

  @Override
  public void endCursor(Connection connection, boolean succeeded) throws SQLException {
    if (succeeded) {
      connection.commit();
    } else {
      connection.rollback();
    }
    connection.setAutoCommit(true);
  }

  /**
   * {@code set_config(name, value, true)} for each setting: local to the transaction, so the
   * settings end with it; {@code role} set this way is {@code SET LOCAL ROLE}, membership checked
   * by the server. Names and values are both parameters.
   */
  @Override
  public Optional<String> sessionSettings(int count) {
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < count; i++) {
      sql.append(i == 0 ? "" : ", ").append("set_config(?, ?, true)");
    }
    return Optional.of(sql.toString());
  }

  @Override
  public boolean isResultTooLarge(SQLException e) {
    return e.getMessage() != null && e.getMessage().startsWith(BUFFER_LIMIT);
  }

  /** The server's primary message ({@code relation "x" does not exist}), without detail lines. */
  @Override
  public String message(SQLException e) {
    if (e instanceof PSQLException p) {
      ServerErrorMessage server = p.getServerErrorMessage();
      if (server != null && server.getMessage() != null) {
        return SqlDialect.firstLine(server.getMessage());
      }
    }
    return SqlDialect.firstLine(e.getMessage());
  }

  @Override
  public OptionalInt untypedParameter(SQLException e) {
    if (!"42P18".equals(e.getSQLState())) { // indeterminate_datatype
      return OptionalInt.empty();
    }
    Matcher parameter = UNTYPED_PARAMETER.matcher(message(e));
    return parameter.find()
        ? OptionalInt.of(Integer.parseInt(parameter.group(1)))
        : OptionalInt.empty();
  }

  /** A text-typed parameter (pgjdbc sends the type named by a {@code PGobject}). */
  @Override
  public void bindText(PreparedStatement statement, int index, String value) throws SQLException {
    PGobject text = new PGobject();
    text.setType("text");
    text.setValue(value);
    statement.setObject(index, text);
  }

  @Override
  public boolean isConnectionLost(SQLException e) {
    String state = e.getSQLState();
    // admin_shutdown, crash_shutdown, cannot_connect_now: the server is going away
    return SqlDialect.super.isConnectionLost(e)
        || "57P01".equals(state)
        || "57P02".equals(state)
        || "57P03".equals(state);
  }

  /**
   * Sends PostgreSQL's cancel request (process id and key, over a new socket) directly: pgjdbc's
   * {@code Statement.cancel()} and {@code cancelQuery()} refuse once the connection's own socket
   * failed, yet the server is still running the query.
   */
  @Override
  public void stopAbandoned(Connection connection, JdbcPool.Opener opener) throws SQLException {
    if (connection instanceof BaseConnection pg) {
      pg.getQueryExecutor().sendQueryCancel();
    }
  }

  @Override
  public boolean isCancellation(SQLException e) {
    return "57014".equals(e.getSQLState()); // query_canceled
  }
}
