package dev.svc.connector;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * How a {@link JdbcConnector} opens its connections: through its dialect's driver with the
 * adapter's settings; for an anchored database (an in-memory SQLite database that must outlive its
 * pool's connections) with one extra connection held open until {@link #close}; and, for a dialect
 * that needs it (SQLite creating its file), the very first connection alone, before the others.
 */
final class JdbcConnections {
  private final SqlDialect dialect;
  private final JdbcSettings settings;
  private final String description;
  private final Object anchorLock = new Object();
  private Connection anchor; // guarded by anchorLock
  private boolean closed; // guarded by anchorLock
  private final Object firstOpenLock = new Object();
  private volatile boolean openedOne;

  JdbcConnections(SqlDialect dialect, JdbcSettings settings, String description) {
    this.dialect = dialect;
    this.settings = settings;
    this.description = description;
  }

  /** A connection for the pool. */
  Connection open() throws SQLException {
    if (settings.anchored()) {
      synchronized (anchorLock) {
        if (closed) {
          throw new SQLException(description + " is closed");
        }
        if (anchor == null) {
          anchor = connect();
        }
      }
    }
    if (!openedOne && dialect.opensFirstConnectionAlone()) {
      synchronized (firstOpenLock) {
        if (!openedOne) {
          Connection first = connect();
          openedOne = true;
          return first;
        }
      }
    }
    return connect();
  }

  /** A new connection, outside the pool's accounting (also to stop an abandoned statement). */
  Connection connect() throws SQLException {
    Connection connection = dialect.driver().connect(settings.url(), settings.driverProperties());
    if (connection == null) {
      throw new SQLException("the " + dialect.kind().wireName() + " driver rejected its URL");
    }
    return connection;
  }

  /** Closes the anchor, if one is open; no connection opens after. Never throws. */
  void close() {
    synchronized (anchorLock) {
      closed = true;
      if (anchor != null) {
        try {
          anchor.close();
        } catch (SQLException | RuntimeException e) {
          // closing is best effort
        }
        anchor = null;
      }
    }
  }
}
