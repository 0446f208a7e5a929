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
 */
public record ServerSettings(
    String address,
    int port,
    List<String> allowedHosts,
    List<String> allowedOrigins,
    int maxBodyBytes) {
  /** Requests larger than this are refused with 413: 4 MiB. */
  public static final int DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

  public ServerSettings {
    allowedHosts = List.copyOf(allowedHosts);
    allowedOrigins = List.copyOf(allowedOrigins);
  }
}
