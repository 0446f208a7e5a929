package dev.svc.connector;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * The network cause of a failure in plain words, for the connectors that speak their own protocol
 * (MongoDB, Redis, libSQL over HTTP): unknown host, connection refused, timed out, a TLS problem.
 */
final class NetworkFailures {
  private NetworkFailures() {}

  /**
   * A connection that failed during a call ({@code lost the connection to <adapter> at <host>:
   * <reason>}): the server's fault.
   */
  static ConnectorUnavailableException lostConnection(
      String description, String location, Throwable failure) {
    return new ConnectorUnavailableException(
        "lost the connection to "
            + description
            + " at "
            + location
            + ": "
            + reason(failure).orElse(SqlDialect.firstLine(failure.getMessage())),
        failure);
  }

  /**
   * The first network cause in {@code failure}'s chain (and the exceptions suppressed along it,
   * where clients put one failure per address tried), in words; empty if there is none.
   */
  static Optional<String> reason(Throwable failure) {
    int depth = 0;
    for (Throwable t = failure; t != null && depth < 20; t = t.getCause(), depth++) {
      for (Throwable suppressed : t.getSuppressed()) {
        Optional<String> reason = reason(suppressed);
        if (reason.isPresent()) {
          return reason;
        }
      }
      String message = t.getMessage() == null ? "" : t.getMessage();
      switch (t) {
        case UnknownHostException e -> {
          String host = message.split(":")[0].strip();
          return Optional.of(host.isEmpty() ? "unknown host" : "unknown host `" + host + "`");
        }
        case NoRouteToHostException e -> {
          return Optional.of("no route to host");
        }
        case HttpConnectTimeoutException e -> {
          return Optional.of("timed out while connecting");
        }
        case ConnectException e -> {
          String lower = message.toLowerCase(Locale.ROOT);
          return Optional.of(
              lower.contains("timed out")
                  ? "timed out while connecting"
                  : lower.isEmpty() || lower.contains("refused")
                      ? "connection refused"
                      : SqlDialect.firstLine(message));
        }
        case SocketTimeoutException e -> {
          return Optional.of("timed out");
        }
        case SSLException e -> {
          return Optional.of("TLS failed: " + SqlDialect.firstLine(message));
        }
        default -> {}
      }
    }
    return Optional.empty();
  }
}
