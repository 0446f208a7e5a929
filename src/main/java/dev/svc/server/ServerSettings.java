package dev.svc.server;

import java.util.List;

/**
 * How the HTTP server listens.
 *
 * @param address the address to bind ({@code 127.0.0.1} by default; {@code 0.0.0.0} for all)
 * @param port the port; 0 picks a free one
 * @param allowedHosts extra {@code Host} values accepted besides loopback ones
 * @param allowedOrigins extra {@code Origin} values accepted besides loopback ones
 * @param maxBodyBytes the largest request body accepted
 * @param metrics where {@code GET /metrics} is served
 */
public record ServerSettings(
    String address,
    int port,
    List<String> allowedHosts,
    List<String> allowedOrigins,
    int maxBodyBytes,
    Metrics metrics) {
  /** Requests larger than this are refused with 413: 4 MiB. */
  public static final int DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

  public ServerSettings {
    allowedHosts = List.copyOf(allowedHosts);
    allowedOrigins = List.copyOf(allowedOrigins);
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
  public record Metrics(boolean enabled, java.util.Optional<Integer> port) {
    public static final Metrics MAIN_PORT = new Metrics(true, java.util.Optional.empty());
    public static final Metrics OFF = new Metrics(false, java.util.Optional.empty());
  }
}
