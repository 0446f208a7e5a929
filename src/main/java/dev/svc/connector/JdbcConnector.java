package dev.svc.connector;

import dev.svc.call.Deadline;
import dev.svc.model.Statement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.databind.JsonNode;

/**
 * The SQL connector: PostgreSQL, MySQL/MariaDB and local SQLite over JDBC, configured by a {@link
 * SqlDialect}. Each call borrows a connection from a small fixed {@link JdbcPool}, reuses the
 * statement prepared on that connection, binds every value as a parameter, and builds the rows as
 * JSON.
 *
 * <p><b>Why not HikariCP.</b> A general pool prepares statements per call and hands connections
 * over without regard to arrival order. Measured on the real hot path (performance.md), our own
 * fixed pool with a per-connection prepared-statement cache and a fair FIFO hand-off served 30–40%
 * more requests per second than a general pool that prepares per call, and halved p99 latency; with
 * virtual threads, FIFO hand-off was essential to keep tails short. The pool is ~250 lines; the
 * dependency and its tuning surface would buy us nothing we use.
 *
 * <p><b>Deadlines.</b> A call waits for a free connection at most {@link #MAX_POOL_WAIT} (and never
 * past its deadline), and for a connection being opened at most until its deadline; the statement
 * gets the rest: a cancel at the deadline ({@link StatementDeadline}; the drivers' own {@code
 * setQueryTimeout} is not used, it would add a timer of theirs to every statement). An interrupted
 * call (the client cancelled it) is stopped at the database too, and fails with a {@link
 * StatementFailedException}.
 *
 * <p><b>Memory.</b> A call reads no further than its window ({@link StatementOptions}): the dialect
 * sets the statement up to fetch in bounded batches or to stream ({@link SqlDialect#fetchAtMost}),
 * rows before the window are stepped over unread, and each row kept is counted in the call's {@link
 * ResultMemory}, which stops a result past its ceiling or the process's budget. A result stopped
 * half-read on a streaming driver is abandoned with its connection, so the rest is never read.
 *
 * <p><b>Errors.</b> The database rejecting a statement, or the deadline, is a {@link
 * StatementFailedException} with the database's one-line message; an unreachable database, a broken
 * connection or an exhausted pool is a {@link ConnectorUnavailableException}. Either leaves with
 * the call's bound values taken out of it ({@link BoundValueRedaction}).
 */
public final class JdbcConnector implements Connector {
  /** The longest a call waits for a free connection before "pool exhausted". */
  static final Duration MAX_POOL_WAIT = Duration.ofSeconds(10);

  private static final String CHECK_QUERY = "SELECT 1";
  private static final int VALIDATION_TIMEOUT_SECONDS = 2;

  /** A driver's cancellation this close to the deadline is the deadline's. */
  private static final long CANCEL_SLACK_NANOS =
      TimeUnit.MILLISECONDS.toNanos(50 + StatementDeadline.TICK_MILLIS);

  private final ResolvedAdapter adapter;
  private final SqlDialect dialect;
  private final JdbcSettings settings;
  private final String description;
  private final JdbcPool pool;
  private final UntypedParameters untyped;
  private final AtomicBoolean closed = new AtomicBoolean();

  private final JdbcConnections connections;

  /** Translates the adapter's settings; opens nothing yet ({@link #check} does). */
  JdbcConnector(ResolvedAdapter adapter, SqlDialect dialect) {
    this.adapter = adapter;
    this.dialect = dialect;
    this.settings = dialect.settings(adapter);
    this.description = dialect.kind().wireName() + " adapter `" + adapter.name() + "`";
    this.connections = new JdbcConnections(dialect, settings, description);
    this.pool = new JdbcPool(settings.poolSize(), connections::open, description);
    this.untyped = new UntypedParameters(dialect);
  }

  @Override
  public Optional<PoolUsage> pool() {
    int size = pool.size();
    int idle = pool.available();
    return Optional.of(new PoolUsage(size - idle, idle, size, pool.waiting()));
  }

  /** Connections in the pool. */
  int poolSize() {
    return pool.size();
  }

  /** Connections not borrowed right now. */
  int available() {
    return pool.available();
  }

  /**
   * Opens every connection of the pool in parallel and runs a trivial query, all by {@code
   * deadline}.
   */
  @Override
  public void check(Deadline deadline) {
    dialect.prepare(adapter, settings);
    List<CompletableFuture<PooledConnection>> opening = pool.fill();
    CompletableFuture<Void> firstFailure = new CompletableFuture<>();
    opening.forEach(f ->
        f.whenComplete((ok, failure) -> {
          if (failure != null) {
            firstFailure.completeExceptionally(failure);
          }
        }));
    try {
      CompletableFuture.anyOf(
              CompletableFuture.allOf(opening.toArray(CompletableFuture[]::new)), firstFailure)
          .get(Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new ConnectorUnavailableException(
          JdbcFailures.cannotConnectPrefix(dialect, settings, description)
              + "timed out after "
              + JdbcFailures.words(deadline.timeout()));
    } catch (ExecutionException e) {
      throw connectFailure(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectorUnavailableException("interrupted while connecting to " + description);
    }
    try {
      // the answer is not turned into JSON: that would initialise Jackson's and BigDecimal's
      // number classes (~15 ms) on the start-up path for a value nobody reads
      run(new Statement.Sql(CHECK_QUERY, CHECK_QUERY, List.of()), Map.of(), deadline, null, null);
    } catch (StatementFailedException e) {
      throw new ConnectorUnavailableException(
          description + " did not answer `" + CHECK_QUERY + "`: " + e.getMessage(), e);
    }
  }

  @Override
  public JsonNode execute(
      Statement statement,
      Map<String, Object> values,
      Deadline deadline,
      StatementOptions options) {
    if (!(statement instanceof Statement.Sql sql)) {
      throw new IllegalArgumentException(description + " runs SQL statements only");
    }
    try {
      return ResultMemory.counting(memory -> run(sql, values, deadline, options, memory));
    } catch (StatementFailedException | ConnectorUnavailableException e) {
      throw BoundValueRedaction.of(values).apply(e);
    }
  }

  /**
   * Prepares the statement afresh on a pool connection (where it stays cached for the calls to
   * come), binds the samples as a call would bind values (so PostgreSQL can type {@code ? + ?}),
   * and reads its result columns from the driver's metadata, without running it. Afresh: a reload
   * describes statements the calls have prepared and run, and sqlite-jdbc keeps no columns for a
   * statement it ran ("inconsistent internal state"); a new one also sees the tables as they are.
   */
  @Override
  public Optional<ResultShape> describe(
      Statement statement, Map<String, Object> samples, Deadline deadline) {
    if (!(statement instanceof Statement.Sql sql)) {
      return Optional.empty();
    }
    JdbcPool.Lease lease = borrow(deadline);
    PooledConnection connection = lease.connection();
    boolean healthy = true;
    try {
      connection.forget(sql.sql());
      PreparedStatement prepared = connection.prepare(sql.sql());
      if (samples.keySet().containsAll(sql.inputNames())) {
        ParameterBinder.bind(prepared, sql.parameters(), samples, dialect, untyped.of(sql));
      }
      return Optional.of(JdbcResultShapes.of(prepared.getMetaData(), dialect));
    } catch (SQLException e) {
      connection.forget(sql.sql());
      if (dialect.isConnectionLost(e) || !connection.isValid(VALIDATION_TIMEOUT_SECONDS)) {
        healthy = false;
        throw new ConnectorUnavailableException(
            "lost the connection to " + description + ": " + dialect.message(e), e);
      }
      throw new StatementFailedException(dialect.message(e), false, e);
    } finally {
      pool.release(lease, healthy);
    }
  }

  /**
   * Runs one statement and reads the rows of {@code window}, counting them in {@code memory}; with
   * no window (the start-up check) only the first row is fetched and the result is null. With the
   * window's {@code readOnly} the dialect makes the database refuse writes for this statement only,
   * and undoes it before the connection returns to the pool (or the connection is discarded).
   */
  private JsonNode run(
      Statement.Sql sql,
      Map<String, Object> values,
      Deadline deadline,
      StatementOptions window,
      ResultMemory.Account memory) {
    Duration timeout = deadline.timeout();
    JdbcPool.Lease lease = borrow(deadline);
    PooledConnection connection = lease.connection();
    boolean healthy = true;
    boolean inReadOnly = false;
    boolean inCursor = false;
    boolean inSession = false;
    StatementDeadline cancel = null;
    try {
      PreparedStatement prepared = connection.prepare(sql.sql());
      untyped.bind(prepared, sql, values);
      if (deadline.passed()) {
        throw new StatementFailedException(JdbcFailures.statementTimedOut(timeout), true, null);
      }
      if (window != null && window.readOnly()) {
        inReadOnly = true; // set first: a begin that fails half-way is ended (or discarded) too
        dialect.beginReadOnly(connection.raw());
      }
      if (window != null && !window.settings().isEmpty()) {
        if (!inReadOnly) {
          inSession = true; // set first, as for read-only
          connection.raw().setAutoCommit(false);
        }
        applySettings(connection, window.settings());
      }
      inCursor =
          dialect.fetchAtMost(
              connection.raw(), prepared, sql.sql(), window == null ? 1 : window.readLimit());
      cancel = StatementDeadline.arm(prepared::cancel, deadline);
      JsonNode result;
      if (untyped.execute(prepared, sql, values)) {
        ResultSet rows = prepared.getResultSet();
        boolean abandoned = false;
        try {
          if (window == null) {
            rows.next();
            result = null;
          } else {
            try {
              result = ResultRows.read(rows, dialect, window, memory);
            } catch (ResultRefusedException e) {
              abandoned = dialect.drainsOnClose(); // closing would read the rest of the result
              throw e;
            }
            // rows left past the window that the server did not stop at (a streaming driver's
            // limit applies to some statements only): not read to their end either
            abandoned = dialect.drainsOnClose() && more(rows);
          }
        } catch (SQLException | RuntimeException failure) {
          if (abandoned) {
            healthy = false;
            abandon(connection, rows);
          } else {
            closeQuietly(rows);
          }
          throw failure;
        }
        if (abandoned) {
          healthy = false;
          abandon(connection, rows);
        } else {
          rows.close();
        }
      } else {
        result = ResultRows.rowsAffected(prepared.getUpdateCount());
      }
      if (inCursor) {
        inCursor = false;
        boolean fit = healthy;
        healthy = false; // until the commit is through: a failed one leaves auto-commit off
        dialect.endCursor(connection.raw(), true);
        healthy = fit;
      }
      if (inSession) {
        inSession = false;
        boolean fit = healthy;
        healthy = false; // as for the cursor: a failed commit leaves auto-commit off
        connection.raw().commit();
        connection.raw().setAutoCommit(true);
        healthy = fit;
      }
      return result;
    } catch (SQLException e) {
      if (inReadOnly && !Thread.currentThread().isInterrupted()) {
        if (cancel != null) {
          cancel.close();
        }
        inReadOnly = false;
        healthy = endReadOnly(connection); // before the checks below talk to the database
      }
      if (inSession && !Thread.currentThread().isInterrupted()) {
        if (cancel != null) {
          cancel.close();
        }
        inSession = false;
        healthy = endSession(connection); // the failed statement aborted the transaction
      }
      if (Thread.currentThread().isInterrupted()) {
        healthy = false; // the interrupt may have closed the socket mid-exchange
        stopAbandoned(connection);
        throw new StatementFailedException(
            "the call was cancelled before the statement finished", false, e);
      }
      boolean deadlinePassed = deadline.remainingNanos() < CANCEL_SLACK_NANOS;
      if ((cancel != null && cancel.fired())
          || e instanceof SQLTimeoutException
          || (dialect.isCancellation(e) && deadlinePassed)) {
        throw new StatementFailedException(JdbcFailures.statementTimedOut(timeout), true, e);
      }
      // a statement that failed mid-result is prepared again: sqlite-jdbc's fails its next run
      // with "statement is not executing"
      connection.forget(sql.sql());
      if (dialect.isResultTooLarge(e)) {
        healthy = healthy && connection.isValid(VALIDATION_TIMEOUT_SECONDS);
        throw memory == null
            ? new StatementFailedException(dialect.message(e), false, e)
            : memory.ceilingRefusal();
      }
      if (dialect.isConnectionLost(e) || !connection.isValid(VALIDATION_TIMEOUT_SECONDS)) {
        healthy = false;
        throw new ConnectorUnavailableException(
            "lost the connection to "
                + description
                + " at "
                + settings.location()
                + ": "
                + dialect.message(e),
            e);
      }
      throw new StatementFailedException(dialect.message(e), false, e);
    } finally {
      if (cancel != null) {
        cancel.close(); // before the connection can reach another caller
      }
      if (inCursor && healthy) {
        try {
          dialect.endCursor(connection.raw(), false);
        } catch (SQLException | RuntimeException e) {
          healthy = false; // its transaction state is unknown: not for the next caller
        }
      }
      if (inReadOnly && healthy) {
        healthy = endReadOnly(connection);
      }
      if (inSession && healthy) {
        healthy = endSession(connection);
      }
      pool.release(lease, healthy);
    }
  }

  /**
   * Makes a call's settings for the transaction just begun ({@link SqlDialect#sessionSettings}):
   * names and values bound as parameters, never written into the statement.
   */
  private void applySettings(
      PooledConnection connection, List<StatementOptions.SessionSetting> settings)
      throws SQLException {
    String text =
        dialect
            .sessionSettings(settings.size())
            .orElseThrow(
                () -> new IllegalArgumentException(description + " has no session settings"));
    PreparedStatement prepared = connection.prepare(text);
    int index = 1;
    for (StatementOptions.SessionSetting setting : settings) {
      prepared.setString(index++, setting.name());
      prepared.setString(index++, setting.value());
    }
    prepared.executeQuery().close(); // set_config returns the values it set: nothing to read
  }

  /**
   * Rolls back the transaction a call's settings were made in, which undoes them; false when that
   * failed and the connection must be discarded.
   */
  private boolean endSession(PooledConnection connection) {
    boolean interrupted = Thread.interrupted(); // the settings must not reach the next caller
    try {
      connection.raw().rollback();
      connection.raw().setAutoCommit(true);
      return true;
    } catch (SQLException | RuntimeException e) {
      return false;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Ends a read-only statement; false when that failed and the connection must be discarded. */
  private boolean endReadOnly(PooledConnection connection) {
    boolean interrupted = Thread.interrupted(); // the caller may be gone; the mode must not stay
    try {
      dialect.endReadOnly(connection.raw());
      return true;
    } catch (SQLException | RuntimeException e) {
      return false;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Closes every connection; calls in flight lose theirs when they finish. Never throws. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      pool.close();
    } finally {
      connections.close();
    }
  }

  @Override
  public String toString() {
    return "JdbcConnector(" + description + ", pool of " + pool.size() + ")";
  }

  private JdbcPool.Lease borrow(Deadline deadline) {
    try {
      return pool.borrow(MAX_POOL_WAIT, deadline);
    } catch (SQLException e) {
      throw connectFailure(e);
    } catch (TimeoutException e) {
      throw new ConnectorUnavailableException(
          JdbcFailures.cannotConnectPrefix(dialect, settings, description)
              + "timed out after "
              + JdbcFailures.words(deadline.timeout()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StatementFailedException(
          "the call was cancelled while waiting for a connection to " + description, false, e);
    }
  }

  /**
   * A result left half-read on a streaming driver: its connection's socket is closed at once, so
   * that nothing reads the rest of it; the server, which is sending it, fails its next write and
   * stops. The connection is discarded.
   */
  private static void abandon(PooledConnection connection, ResultSet rows) {
    try {
      connection.raw().abort(Runnable::run);
    } catch (SQLException | RuntimeException e) {
      // the connection is discarded either way
    }
    closeQuietly(rows);
  }

  /** Whether a row is left past the window; a row that fails to arrive counts as one. */
  private static boolean more(ResultSet rows) {
    try {
      return rows.next();
    } catch (SQLException e) {
      return true;
    }
  }

  private static void closeQuietly(ResultSet rows) {
    try {
      rows.close();
    } catch (SQLException | RuntimeException e) {
      // a result whose statement failed, or whose connection was closed under it
    }
  }

  /** Best effort: the caller is gone, so the statement must not run on at the server. */
  private void stopAbandoned(PooledConnection connection) {
    boolean interrupted = Thread.interrupted(); // an interrupted thread cannot open a socket
    try {
      dialect.stopAbandoned(connection.raw(), connections::connect);
    } catch (SQLException | RuntimeException e) {
      // the statement may have ended on its own; its connection is discarded either way
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private ConnectorUnavailableException connectFailure(Throwable failure) {
    if (failure instanceof ConnectorUnavailableException unavailable) {
      return unavailable;
    }
    return new ConnectorUnavailableException(
        JdbcFailures.cannotConnect(dialect, settings, description, failure), failure);
  }
}
