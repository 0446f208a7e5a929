package dev.svc.connector;

import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.jdbc.exceptions.MySQLStatementCancelledException;
import dev.svc.model.ConnectorKind;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * MySQL and MariaDB through MySQL Connector/J.
 *
 * <p>The connection string is a Go-driver DSN, {@code user:password@tcp(host:port)/db?param=value}
 * (or, for convenience, {@code mysql://user:password@host:port/db?param=value}). User and password
 * are percent-decoded when they hold {@code %XX} escapes. DSN parameters are translated: {@code
 * charset} → {@code characterEncoding} (the first of a list), {@code collation} → {@code
 * connectionCollation}, {@code timeout} → {@code connectTimeout}, {@code readTimeout} → {@code
 * socketTimeout} (durations such as {@code 5s}, {@code 500ms}, {@code 1m} in milliseconds), {@code
 * loc} → {@code connectionTimeZone}, {@code tls} → {@code sslMode}. Go-only switches without a
 * meaning here ({@code parseTime}: results are always ISO-8601 strings; {@code writeTimeout}: Java
 * sockets have no write time-out; {@code multiStatements}: never enabled) are accepted and ignored.
 * Anything else, and every option, is passed to Connector/J as written; the {@code charset} option
 * sets the character set like the parameter does. Options win over parameters.
 *
 * <p>Defaults: a pool of {@value #DEFAULT_POOL_SIZE}, connect time-out 10 s, server-side prepared
 * statements without a fallback to client-side ones (values travel as protocol parameters, never in
 * the SQL text, and our per-connection statement cache reuses the server's plans; see {@link
 * #serverSidePreparedStatements}), zero dates read as NULL, streamed results without a {@code
 * net_write_timeout} round trip ({@code netTimeoutForStreamingResults=0}), and sockets that count
 * the bytes of each row against the result ceiling ({@link MysqlReplyBound}). Options can change
 * any of them; a {@code socketFactory} option replaces the counting sockets, and with them the
 * bound on one row.
 */
final class MysqlDialect implements SqlDialect {
  static final MysqlDialect INSTANCE = new MysqlDialect();
  static final int DEFAULT_POOL_SIZE = 8;

  /** Statements Connector/J keeps prepared on the server after they are closed, per connection. */
  static final int SERVER_STATEMENT_CACHE = 32;

  /** The longest statement text (in characters) Connector/J's statement cache keeps. */
  static final int CACHED_STATEMENT_MAX_CHARS = 8192;

  private static final Driver DRIVER = newDriver();
  private static final Set<String> GO_ONLY =
      Set.of(
          "parseTime",
          "writeTimeout",
          "multiStatements",
          "interpolateParams",
          "columnsWithAlias",
          "clientFoundRows",
          "allowNativePasswords",
          "allowOldPasswords",
          "allowCleartextPasswords",
          "allowFallbackToPlaintext",
          "allowAllFiles",
          "checkConnLiveness",
          "rejectReadOnly",
          "serverPubKey",
          "timeTruncate",
          "connectionAttributes");

  private MysqlDialect() {}

  private static Driver newDriver() {
    try {
      return new com.mysql.cj.jdbc.Driver();
    } catch (SQLException e) {
      throw new IllegalStateException("MySQL Connector/J cannot start", e);
    }
  }

  @Override
  public ConnectorKind kind() {
    return ConnectorKind.MYSQL;
  }

  @Override
  public Driver driver() {
    return DRIVER;
  }

  @Override
  public JdbcSettings settings(ResolvedAdapter adapter) {
    String text = adapter.connectionString().strip();
    ConnectionStrings.UrlParts url =
        text.startsWith("mysql://")
            ? ConnectionStrings.url(text.substring("mysql://".length()), 3306, adapter.name())
            : MysqlDsn.parse(text, adapter.name());
    if (url.hosts().size() != 1) {
      throw new ConnectorUnavailableException(
          "the connection string of mysql adapter `" + adapter.name() + "` names several hosts");
    }
    Map<String, String> settings = new LinkedHashMap<>(url.query());
    settings.putAll(adapter.options());

    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("connectTimeout", "10000");
    properties.put("zeroDateTimeBehavior", "CONVERT_TO_NULL");
    serverSidePreparedStatements(properties);
    // rows are streamed (fetchAtMost); without this Connector/J sends `SET net_write_timeout`
    // before every streamed statement, a round trip per call
    properties.put("netTimeoutForStreamingResults", "0");
    // a row is read whole before it can be counted: its bytes are counted on the socket instead
    properties.put("socketFactory", MysqlReplyBound.class.getName());
    url.user().ifPresent(user -> properties.put("user", user));
    url.password().ifPresent(password -> properties.put("password", password));
    for (Map.Entry<String, String> setting : settings.entrySet()) {
      String key = setting.getKey();
      String value = setting.getValue();
      switch (key) {
        case ConnectionStrings.MAX_CONNECTIONS -> {} // the pool's, not the driver's
        case "charset" -> properties.put("characterEncoding", javaEncoding(value));
        case "collation" -> properties.put("connectionCollation", value);
        case "timeout" ->
            properties.put("connectTimeout", ConnectionStrings.millis(adapter.name(), key, value));
        case "readTimeout" ->
            properties.put("socketTimeout", ConnectionStrings.millis(adapter.name(), key, value));
        case "loc" -> properties.put("connectionTimeZone", value.equals("Local") ? "LOCAL" : value);
        case "tls" -> properties.put("sslMode", sslMode(adapter.name(), value));
        default -> {
          if (key.equals("writeTimeout")) {
            ConnectionStrings.millis(adapter.name(), key, value); // still must be a duration
          } else if (!GO_ONLY.contains(key)) {
            properties.put(key, value);
          }
        }
      }
    }
    ConnectionStrings.HostPort host = url.hosts().getFirst();
    String jdbcUrl =
        "jdbc:mysql://"
            + host
            + "/"
            + URLEncoder.encode(url.database(), StandardCharsets.UTF_8).replace("+", "%20");
    return new JdbcSettings(
        jdbcUrl,
        properties,
        ConnectionStrings.poolSize(adapter.name(), settings, DEFAULT_POOL_SIZE),
        host.toString(),
        Optional.ofNullable(properties.get("user")),
        false,
        connectTimeout(adapter.name(), properties.get("connectTimeout")));
  }

  /**
   * Values travel as binary parameters of statements the server prepared, never in the SQL text
   * (docs/decisions.md "Placeholders"). Connector/J would fall back to splicing escaped values into
   * the text when the server cannot prepare a statement, even for a mere syntax error, and then
   * echo them in the error: {@code emulateUnsupportedPstmts=false} turns that fallback off, so such
   * a statement fails with the server's message about the statement with its {@code ?}s. Its
   * statement cache keeps a statement prepared on the server after our per-connection cache ({@link
   * PooledConnection#STATEMENT_CACHE_SIZE}) closes it: a connection holds at most 128 + {@value
   * #SERVER_STATEMENT_CACHE} prepared statements, well inside the server's {@code
   * max_prepared_stmt_count} (16382 by default) for a pool of 8.
   */
  private static void serverSidePreparedStatements(Map<String, String> properties) {
    properties.put("useServerPrepStmts", "true");
    properties.put("emulateUnsupportedPstmts", "false");
    properties.put("cachePrepStmts", "true");
    properties.put("prepStmtCacheSize", Integer.toString(SERVER_STATEMENT_CACHE));
    properties.put("prepStmtCacheSqlLimit", Integer.toString(CACHED_STATEMENT_MAX_CHARS));
  }

  private static Duration connectTimeout(String adapter, String millis) {
    try {
      return Duration.ofMillis(Long.parseLong(millis.strip()));
    } catch (NumberFormatException e) {
      throw new ConnectorUnavailableException(
          "connectTimeout of mysql adapter `"
              + adapter
              + "` must be a whole number of milliseconds");
    }
  }

  /**
   * Connector/J takes Java encoding names; MySQL charset names (the first of a Go-style list) are
   * translated, anything else is passed on. {@code utf8}/{@code utf8mb3} become UTF-8, which
   * Connector/J sends as utf8mb4, a superset.
   */
  static String javaEncoding(String charsets) {
    String charset = charsets.split(",")[0].strip();
    return switch (charset.toLowerCase(Locale.ROOT)) {
      case "utf8mb4", "utf8", "utf8mb3" -> "UTF-8";
      case "latin1" -> "Cp1252";
      case "ascii" -> "US-ASCII";
      case "latin2" -> "ISO8859_2";
      case "greek" -> "ISO8859_7";
      case "hebrew" -> "ISO8859_8";
      case "cp1250" -> "Cp1250";
      case "cp1251" -> "Cp1251";
      case "cp1256" -> "Cp1256";
      case "cp1257" -> "Cp1257";
      case "koi8r" -> "KOI8_R";
      case "sjis" -> "SJIS";
      case "cp932" -> "Cp932";
      case "ujis" -> "EUC_JP";
      case "euckr" -> "EUC_KR";
      case "big5" -> "Big5";
      case "gbk" -> "GBK";
      case "gb2312" -> "EUC_CN";
      case "gb18030" -> "GB18030";
      default -> charset;
    };
  }

  /** The Go driver's {@code tls} values as Connector/J {@code sslMode}. */
  private static String sslMode(String adapter, String value) {
    return switch (value) {
      case "true" -> "VERIFY_IDENTITY";
      case "skip-verify" -> "REQUIRED";
      case "preferred" -> "PREFERRED";
      case "false" -> "DISABLED";
      default ->
          throw new ConnectorUnavailableException(
              "tls=`"
                  + value
                  + "` of mysql adapter `"
                  + adapter
                  + "` is not supported: use true, skip-verify, preferred or false");
    };
  }

  @Override
  public ColumnKind columnKind(ResultSetMetaData meta, int column) throws SQLException {
    return switch (meta.getColumnTypeName(column)) {
      case "JSON" -> ColumnKind.JSON;
      case "TIMESTAMP" -> ColumnKind.INSTANT;
      case "YEAR" -> ColumnKind.INTEGER;
      default -> ColumnKind.standard(meta, column);
    };
  }

  /**
   * The session's transactions are read-only while the statement runs: one round trip to begin and
   * one to end. Not {@code START TRANSACTION READ ONLY}: a DDL statement commits the open
   * transaction implicitly and then runs outside it, so MariaDB dropped a table through it
   * (measured); with the session read-only, every transaction the statement starts is read-only and
   * the server refuses DDL as well as DML.
   */
  @Override
  public void beginReadOnly(Connection connection) throws SQLException {
    SqlDialect.command(connection, "SET SESSION TRANSACTION READ ONLY");
  }

  @Override
  public void endReadOnly(Connection connection) throws SQLException {
    SqlDialect.command(connection, "SET SESSION TRANSACTION READ WRITE");
  }

  /** A row that passed the call's ceiling on the socket ({@link MysqlReplyBound}). */
  @Override
  public boolean isResultTooLarge(SQLException e) {
    return ReplyTooLargeException.among(e) != null;
  }

  @Override
  public boolean isCancellation(SQLException e) {
    return e instanceof SQLTimeoutException
        || e instanceof MySQLStatementCancelledException
        || e.getErrorCode() == 1317 // ER_QUERY_INTERRUPTED
        || e.getErrorCode() == 3024; // ER_QUERY_TIMEOUT (max_execution_time)
  }

  /**
   * Rows are streamed (Connector/J's {@code fetchSize = Integer.MIN_VALUE}: one row in memory at a
   * time, read from the socket as the caller asks), and the server stops at the window's end
   * ({@code setMaxRows}, which Connector/J sends as {@code SET SQL_SELECT_LIMIT} only when the
   * connection's limit changes: once per connection for a tool's first pages; only for statements
   * that start with {@code S}, so not for a {@code WITH} query). A server-side cursor ({@code
   * useCursorFetch}) was not chosen: MySQL and MariaDB materialize a cursor's whole result before
   * the first fetch. Closing a streamed result reads what is left of it, so a result stopped
   * half-read (a ceiling, or a window the server did not stop at) is abandoned with its connection
   * ({@link #drainsOnClose()}).
   */
  @Override
  public boolean fetchAtMost(
      Connection connection, PreparedStatement statement, String sql, long rows)
      throws SQLException {
    statement.setFetchSize(Integer.MIN_VALUE);
    statement.setMaxRows(rows <= Integer.MAX_VALUE ? (int) rows : 0);
    return false;
  }

  @Override
  public boolean drainsOnClose() {
    return true;
  }

  /**
   * Connector/J has no TIMESTAMP_WITH_TIMEZONE target: it takes the {@code OffsetDateTime} itself
   * and converts the instant to the connection time zone ({@code loc}).
   */
  @Override
  public void bindDateTime(PreparedStatement statement, int index, OffsetDateTime value)
      throws SQLException {
    statement.setObject(index, value);
  }

  /**
   * {@code KILL QUERY} on a second connection, as Connector/J's own cancel does; its cancel does
   * nothing once the statement has failed on the caller's side.
   */
  @Override
  public void stopAbandoned(Connection connection, JdbcPool.Opener opener) throws SQLException {
    if (connection instanceof JdbcConnection mysql) {
      long thread = mysql.getSession().getThreadId();
      try (Connection side = opener.open();
          Statement kill = side.createStatement()) {
        kill.execute("KILL QUERY " + thread);
      }
    }
  }
}
