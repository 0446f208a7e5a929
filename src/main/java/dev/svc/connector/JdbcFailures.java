package dev.svc.connector;

import dev.svc.model.ConnectorKind;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Plain-words messages for failures: why a connection could not be opened, and how long a statement
 * ran. Messages name the adapter and the host, never a password or a bound value.
 */
final class JdbcFailures {
  private JdbcFailures() {}

  /**
   * "cannot connect to postgres adapter `db` at 127.0.0.1:5433: connection refused".
   *
   * @param description {@code postgres adapter `db`}
   */
  static String cannotConnect(
      SqlDialect dialect, JdbcSettings settings, String description, Throwable failure) {
    return cannotConnectPrefix(dialect, settings, description) + reason(dialect, settings, failure);
  }

  /** "cannot connect to postgres adapter `db` at 127.0.0.1:5433: " (SQLite: "cannot open …"). */
  static String cannotConnectPrefix(SqlDialect dialect, JdbcSettings settings, String description) {
    String verb = dialect.kind() == ConnectorKind.SQLITE ? "cannot open " : "cannot connect to ";
    return verb + description + " at " + settings.location() + ": ";
  }

  /** The cause in plain words: connection refused, unknown host, authentication failed, … */
  static String reason(SqlDialect dialect, JdbcSettings settings, Throwable failure) {
    Optional<SQLException> database = Optional.empty();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      switch (t) {
        case UnknownHostException e -> {
          String host = e.getMessage() == null ? "" : e.getMessage().split(":")[0].strip();
          return host.isEmpty() ? "unknown host" : "unknown host `" + host + "`";
        }
        case NoRouteToHostException e -> {
          return "no route to host";
        }
        case ConnectException e -> {
          String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
          return message.contains("timed out")
              ? timedOut(settings)
              : message.isEmpty() || message.contains("refused")
                  ? "connection refused"
                  : SqlDialect.firstLine(message); // "network is unreachable"
        }
        case SocketTimeoutException e -> {
          return timedOut(settings);
        }
        case SQLException e -> {
          if (database.isEmpty()) {
            database = Optional.of(e);
          }
        }
        default -> {}
      }
      if (t.getCause() == t) {
        break;
      }
    }
    if (database.isPresent()) {
      SQLException e = database.get();
      String message = dialect.message(e);
      String state = e.getSQLState() == null ? "" : e.getSQLState();
      if (message.toLowerCase(Locale.ROOT).contains("timed out")) {
        return timedOut(settings); // pgjdbc's loginTimeout: "Connection attempt timed out."
      }
      if (state.startsWith("28")) {
        String user = settings.user().map(u -> " for user `" + u + "`").orElse("");
        return message.toLowerCase(Locale.ROOT).contains("authentication failed")
            ? "authentication failed" + user
            : "authentication failed" + user + " (" + message + ")";
      }
      return message;
    }
    return SqlDialect.firstLine(failure.getMessage());
  }

  private static String timedOut(JdbcSettings settings) {
    return settings.connectTimeout().isZero()
        ? "timed out"
        : "timed out after " + words(settings.connectTimeout());
  }

  /** "the statement ran longer than 30 s and was cancelled". */
  static String statementTimedOut(Duration timeout) {
    return "the statement ran longer than " + words(timeout) + " and was cancelled";
  }

  /** A duration as people write it: {@code 30 s}, {@code 500 ms}, {@code 1.5 s}, {@code 2 min}. */
  static String words(Duration duration) {
    long millis = duration.toMillis();
    if (millis < 1000) {
      return millis + " ms";
    }
    if (millis % 60_000 == 0) {
      return millis / 60_000 + " min";
    }
    if (millis % 1000 == 0) {
      return millis / 1000 + " s";
    }
    return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
  }
}
