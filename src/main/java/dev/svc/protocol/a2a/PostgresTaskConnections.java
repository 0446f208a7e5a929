package dev.svc.protocol.a2a;

import dev.svc.connector.ResolvedAdapter;
import dev.svc.connector.StateConnections;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The PostgreSQL task store's own small pool: at most {@code max_connections} of the adapter
 * (default 8) at once, opened when first needed and kept while healthy. A statement that waits more
 * than 5 s for a connection, or fails, is a {@link TaskStoreException} naming the store; a
 * connection that failed at the connection level (SQLSTATE 08…, 57P…) is closed, not reused.
 */
final class PostgresTaskConnections implements AutoCloseable {
  private static final long POOL_WAIT_MILLIS = 5_000;

  /** Work on one pooled connection. */
  @FunctionalInterface
  interface Work<T> {
    T apply(Connection connection) throws SQLException;
  }

  private final ResolvedAdapter adapter;
  private final String description;
  private final Semaphore permits;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
  private volatile boolean closed;

  /**
   * @param description the store, as messages name it
   */
  PostgresTaskConnections(ResolvedAdapter adapter, String description) {
    this.adapter = adapter;
    this.description = description;
    this.permits = new Semaphore(StateConnections.postgresPoolSize(adapter));
  }

  /** Runs on a pooled connection; a failure is a {@link TaskStoreException} naming the store. */
  <T> T run(String what, Work<T> work) {
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
    try {
      Connection reused = idle.pollFirst();
      if (reused != null) {
        try {
          return attempt(reused, work);
        } catch (BrokenConnection e) {
          // the database restarted or something between dropped idle connections: the others
          // kept idle are likely dead too, and a fresh connection gets the work once more (a
          // connection the server had dropped while idle ran nothing)
          closeIdle();
        }
      }
      return attempt(StateConnections.postgres(adapter), work);
    } catch (BrokenConnection e) {
      throw failure(what, e.cause);
    } catch (SQLException e) {
      throw failure(what, e);
    } finally {
      permits.release();
    }
  }

  /** Runs the work on the connection, which goes back to the pool unless it broke. */
  private <T> T attempt(Connection connection, Work<T> work) throws SQLException {
    boolean healthy = false;
    try {
      T result = work.apply(connection);
      healthy = true;
      return result;
    } catch (SQLException e) {
      if (isBroken(e)) {
        throw new BrokenConnection(e);
      }
      healthy = true; // the statement's fault, not the connection's
      throw e;
    } catch (RuntimeException e) {
      healthy = true; // not the connection's fault (a newer schema, a bad row)
      throw e;
    } finally {
      if (healthy && !closed) {
        idle.offerFirst(connection);
      } else {
        closeQuietly(connection);
      }
    }
  }

  private TaskStoreException failure(String what, SQLException e) {
    return new TaskStoreException(
        description + " could not " + what + ": " + StoredTasks.firstLine(e), e);
  }

  /** A connection-level failure, carried past the pool's bookkeeping. */
  private static final class BrokenConnection extends RuntimeException {
    private final SQLException cause;

    BrokenConnection(SQLException cause) {
      super(cause.getMessage(), cause, false, false);
      this.cause = cause;
    }
  }

  /** A connection of its own, outside the pool (the listening one). */
  Connection open() throws SQLException {
    return StateConnections.postgres(adapter);
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

  @Override
  public void close() {
    closed = true;
    closeIdle();
  }

  private void closeIdle() {
    Connection c;
    while ((c = idle.pollFirst()) != null) {
      closeQuietly(c);
    }
  }
}
