package dev.svc.server;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How the HTTP server listens.
 *
 * @param address the address to bind ({@code 127.0.0.1} by default; {@code 0.0.0.0} for all)
 * @param port the port; 0 picks a free one
 * @param allowedHosts extra {@code Host} values accepted besides loopback ones
 * @param allowedOrigins extra {@code Origin} values accepted besides loopback ones
 * @param maxBodyBytes the largest request body accepted
 * @param metrics where {@code GET /metrics} is served
 * @param limits how long a client may take to send a request, and how many connections it may hold
 */
public record ServerSettings(
    String address,
    int port,
    List<String> allowedHosts,
    List<String> allowedOrigins,
    int maxBodyBytes,
    Metrics metrics,
    Limits limits) {
  /** Requests larger than this are refused with 413: 4 MiB. */
  public static final int DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

  public ServerSettings {
    allowedHosts = List.copyOf(allowedHosts);
    allowedOrigins = List.copyOf(allowedOrigins);
  }

  /** Settings with the default {@link Limits}. */
  public ServerSettings(
      String address,
      int port,
      List<String> allowedHosts,
      List<String> allowedOrigins,
      int maxBodyBytes,
      Metrics metrics) {
    this(address, port, allowedHosts, allowedOrigins, maxBodyBytes, metrics, Limits.DEFAULTS);
  }

  /** Settings with {@code /metrics} on the main port. */
  public ServerSettings(
      String address,
      int port,
      List<String> allowedHosts,
      List<String> allowedOrigins,
      int maxBodyBytes) {
    this(address, port, allowedHosts, allowedOrigins, maxBodyBytes, Metrics.MAIN_PORT);
  }

  /**
   * The Prometheus endpoint: off, on the main port (the default), or alone on its own port (same
   * address), where nothing else is served.
   *
   * @param port its own port (0 picks a free one), or empty for the main port
   */
  public record Metrics(boolean enabled, Optional<Integer> port) {
    public static final Metrics MAIN_PORT = new Metrics(true, Optional.empty());
    public static final Metrics OFF = new Metrics(false, Optional.empty());
  }

  /**
   * What protects the server from slow and greedy clients, and how long it drains on shutdown
   * ({@code server.limits} in {@code .svc}).
   *
   * @param headerTimeout the most time from a request's first byte to the end of its headers; each
   *     byte resets the idle timeout, so without this a client sending a byte now and then would
   *     hold its connection forever
   * @param bodyTimeout the most time from the end of the headers to the end of the body
   * @param connectionsPerClient open connections one client address may hold; 0 for no cap
   * @param drainTimeout on shutdown, how long requests in flight may run before they are answered
   *     with a "server shutting down" error
   * @param maxConnections client connections open at once, all clients together ({@link
   *     ConnectionCeiling}); empty for no cap
   */
  public record Limits(
      Duration headerTimeout,
      Duration bodyTimeout,
      int connectionsPerClient,
      Duration drainTimeout,
      OptionalInt maxConnections) {
    public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(60);
    public static final int DEFAULT_CONNECTIONS_PER_CLIENT = 256;
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(10);
    public static final Limits DEFAULTS =
        new Limits(
            DEFAULT_HEADER_TIMEOUT,
            DEFAULT_BODY_TIMEOUT,
            DEFAULT_CONNECTIONS_PER_CLIENT,
            DEFAULT_DRAIN_TIMEOUT);

    /** These limits, with the cap on all connections this process's descriptors allow. */
    public Limits(
        Duration headerTimeout,
        Duration bodyTimeout,
        int connectionsPerClient,
        Duration drainTimeout) {
      this(
          headerTimeout,
          bodyTimeout,
          connectionsPerClient,
          drainTimeout,
          ConnectionCeiling.forThisProcess());
    }

    public Limits {
      if (headerTimeout.isNegative()
          || headerTimeout.isZero()
          || bodyTimeout.isNegative()
          || bodyTimeout.isZero()
          || drainTimeout.isNegative()
          || connectionsPerClient < 0) {
        throw new IllegalArgumentException(
            "timeouts must be positive (the drain may be zero) and the connection cap not negative");
      }
    }
  }
}
