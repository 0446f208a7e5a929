package dev.svc.connector;

import dev.svc.model.ConnectorKind;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What differs between the SQL databases {@link JdbcConnector} serves: how a connection string
 * becomes a JDBC URL, how columns map to JSON, and how the driver reports errors. One small
 * strategy per {@link ConnectorKind}; everything else (pool, binding, deadlines) is shared.
 */
sealed interface SqlDialect permits PostgresDialect, MysqlDialect, SqliteDialect {

  ConnectorKind kind();

  /** The driver, used directly so that opening a connection never scans every driver. */
  Driver driver();

  /**
   * Translates the adapter's connection string and options.
   *
   * @throws ConnectorUnavailableException when they are malformed (never quoting a password)
   */
  JdbcSettings settings(ResolvedAdapter adapter);

  /** How column {@code column} (1-based) becomes JSON. */
  ColumnKind columnKind(ResultSetMetaData meta, int column) throws SQLException;

  /**
   * How many columns the statement {@code meta} describes returns; 0 for a statement without a
   * result set.
   */
  default int columnCount(ResultSetMetaData meta) throws SQLException {
    return meta == null ? 0 : meta.getColumnCount();
  }

  /** The label of every column of {@code rows}, in column order. */
  default String[] columnLabels(ResultSet rows, ResultSetMetaData meta) throws SQLException {
    String[] labels = new String[meta.getColumnCount()];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = meta.getColumnLabel(i + 1);
    }
    return labels;
  }

  /**
   * Whether numeric columns can hold NaN or infinities, which results write as strings (so an
   * output schema allows {@code "string"} beside {@code "number"}).
   */
  default boolean nonFiniteNumbers() {
    return false;
  }

  /**
   * Makes the statement that runs next on {@code connection} read-only: the database itself refuses
   * any write it attempts. Only {@code read_only} tools call it; {@link #endReadOnly} follows on
   * every path before the connection returns to the pool.
   */
  void beginReadOnly(Connection connection) throws SQLException;

  /**
   * Undoes {@link #beginReadOnly}, whatever the statement did: the connection is back in the state
   * the pool keeps (writes allowed, autocommit). When this throws, the connection is discarded, so
   * the mode never leaks to another tool's call.
   */
  void endReadOnly(Connection connection) throws SQLException;

  /** Runs one SQL command of svc's own (not a tool's) on {@code connection}. */
  static void command(Connection connection, String sql) throws SQLException {
    try (java.sql.Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** The database's own one-line message, without driver decoration. */
  default String message(SQLException e) {
    return firstLine(e.getMessage());
  }

  /** Whether the connection is gone (it is discarded and the failure is a server fault). */
  default boolean isConnectionLost(SQLException e) {
    String state = e.getSQLState();
    return (state != null && state.startsWith("08"))
        || e instanceof SQLNonTransientConnectionException
        || e instanceof SQLRecoverableException;
  }

  /** Runs before the pool's connections open (e.g. to create a SQLite file from a seed). */
  default void prepare(ResolvedAdapter adapter, JdbcSettings settings) {}

  /**
   * Whether the first connection must open alone before the others open in parallel (SQLite:
   * switching a new file to WAL needs the file to itself).
   */
  default boolean opensFirstConnectionAlone() {
    return false;
  }

  /**
   * Stops the statement still running on {@code connection} after its caller was interrupted: the
   * interrupt closed the caller's socket, and the server would otherwise run the statement to its
   * end. Called with the interrupt set aside. SQLite needs nothing: its statement is interrupted by
   * the {@link StatementDeadline} in the caller's own thread.
   *
   * @param opener opens a second connection, for databases that cancel through one
   */
  default void stopAbandoned(Connection connection, JdbcPool.Opener opener) throws SQLException {}

  /**
   * Sets {@code statement} up, before it runs, to read no more than {@code rows} rows (the window's
   * {@link StatementOptions#readLimit()}) and to hold only a bounded part of the result at a time:
   * the driver fetches in bounded batches, or streams, and the server stops where it can. Returns
   * whether it opened a transaction for a cursor, which {@link #endCursor} must end.
   *
   * @param sql the statement's text
   */
  default boolean fetchAtMost(
      Connection connection, PreparedStatement statement, String sql, long rows)
      throws SQLException {
    return false;
  }

  /**
   * Ends the transaction {@link #fetchAtMost} opened: commits after a statement that succeeded,
   * else rolls back, and turns auto-commit back on.
   */
  default void endCursor(Connection connection, boolean succeeded) throws SQLException {}

  /**
   * The statement that makes {@code count} settings for the current transaction only, with two
   * parameters each (name, value), in order; empty when the database has no such settings (the
   * compiler allows a tool's {@code session} on PostgreSQL only).
   */
  default Optional<String> sessionSettings(int count) {
    return Optional.empty();
  }

  /**
   * Whether closing a result left half-read would read the rest of it (a streaming driver): such a
   * result is abandoned with its connection instead.
   */
  default boolean drainsOnClose() {
    return false;
  }

  /** Whether the driver refused a result for passing its own buffer limit. */
  default boolean isResultTooLarge(SQLException e) {
    return false;
  }

  /** Whether the statement was cancelled (by our deadline, or by someone else). */
  boolean isCancellation(SQLException e);

  default void bindDateTime(PreparedStatement statement, int index, OffsetDateTime value)
      throws SQLException {
    statement.setObject(index, value, Types.TIMESTAMP_WITH_TIMEZONE);
  }

  default void bindDate(PreparedStatement statement, int index, LocalDate value)
      throws SQLException {
    statement.setObject(index, value, Types.DATE);
  }

  /**
   * The parameter (1-based) the database could not give a type to, when that is why {@code e}
   * happened: PostgreSQL's {@code could not determine data type of parameter $1}, for a string sent
   * untyped ({@code stringtype=unspecified}) or a NULL where nothing types it, as in {@code {{
   * inputs.city }} IS NULL}. The connector then binds that parameter with {@link #bindText}.
   */
  default OptionalInt untypedParameter(SQLException e) {
    return OptionalInt.empty();
  }

  /** Binds text, or NULL, with the type text: for a parameter nothing else gives a type to. */
  default void bindText(PreparedStatement statement, int index, String value) throws SQLException {
    statement.setString(index, value);
  }

  static String firstLine(String message) {
    if (message == null || message.isBlank()) {
      return "the database reported an error without a message";
    }
    String line = message.strip();
    int eol = line.indexOf('\n');
    return (eol < 0 ? line : line.substring(0, eol)).strip();
  }
}
