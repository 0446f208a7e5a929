package dev.svc.connector;

import java.util.Locale;
import java.util.Optional;

/**
 * What opening Redis connections for one adapter needs, translated from its connection string and
 * options. Holds the password: never log it; {@link #toString()} leaves it out.
 *
 * <p>Connection strings: {@code redis://[<user>[:<password>]@]<host>[:<port>][/<db_number>]}, and
 * {@code rediss://…} for TLS. The password-only form {@code redis://:<password>@host} logs in as
 * the {@code default} user. User and password are percent-decoded. The port defaults to 6379, the
 * database number to 0. Query parameters are not accepted: options go in {@code options}.
 *
 * @param poolSize the most connections open at once ({@code pool_size}, default {@value
 *     #DEFAULT_POOL_SIZE})
 */
record RedisSettings(
    String host,
    int port,
    boolean tls,
    Optional<String> user,
    Optional<String> password,
    int database,
    int poolSize) {
  static final int DEFAULT_PORT = 6379;
  static final int DEFAULT_POOL_SIZE = 8;
  static final String POOL_SIZE = "pool_size";

  /** The largest database number a Redis server can be configured with. */
  private static final int MAX_DATABASE = 1 << 24;

  static RedisSettings of(ResolvedAdapter adapter) {
    String text = adapter.connectionString().strip();
    int separator = text.indexOf("://");
    String scheme = separator < 0 ? "" : text.substring(0, separator).toLowerCase(Locale.ROOT);
    if (!scheme.equals("redis") && !scheme.equals("rediss")) {
      throw invalid(
          adapter, "must start with redis:// or rediss:// (rediss:// for TLS)", Optional.empty());
    }
    ConnectionStrings.UrlParts url =
        ConnectionStrings.url(text.substring(separator + 3), DEFAULT_PORT, adapter.name());
    if (url.hosts().size() != 1) {
      throw invalid(adapter, "must name exactly one host", Optional.empty());
    }
    if (!url.query().isEmpty()) {
      throw invalid(
          adapter,
          "has query parameters (" + String.join(", ", url.query().keySet()) + ")",
          Optional.of("set pool_size under options; the db number goes in the path: /<db_number>"));
    }
    int database = 0;
    String path = url.database();
    if (!path.isEmpty()) {
      if (!path.matches("[0-9]{1,8}") || Integer.parseInt(path) >= MAX_DATABASE) {
        throw invalid(
            adapter,
            "has `/" + path + "` where the database number belongs",
            Optional.of("write /0, /1, … after the host"));
      }
      database = Integer.parseInt(path);
    }
    int poolSize = poolSize(adapter);
    ConnectionStrings.HostPort host = url.hosts().getFirst();
    String hostName = host.host();
    if (hostName.startsWith("[") && hostName.endsWith("]")) {
      hostName = hostName.substring(1, hostName.length() - 1); // sockets take IPv6 bare
    }
    return new RedisSettings(
        hostName,
        host.port(),
        scheme.equals("rediss"),
        url.user(),
        url.password().filter(p -> !p.isEmpty()),
        database,
        poolSize);
  }

  private static int poolSize(ResolvedAdapter adapter) {
    String text = adapter.options().get(POOL_SIZE);
    if (text == null) {
      return DEFAULT_POOL_SIZE;
    }
    if (text.strip().matches("[0-9]{1,4}")) {
      int size = Integer.parseInt(text.strip());
      if (size >= 1 && size <= ConnectionStrings.MAX_POOL_SIZE) {
        return size;
      }
    }
    throw new ConnectorUnavailableException(
        "option pool_size of redis adapter `"
            + adapter.name()
            + "` must be a whole number from 1 to "
            + ConnectionStrings.MAX_POOL_SIZE);
  }

  private static ConnectorUnavailableException invalid(
      ResolvedAdapter adapter, String problem, Optional<String> hint) {
    return new ConnectorUnavailableException(
        "the connection string of redis adapter `"
            + adapter.name()
            + "` "
            + problem
            + hint.map(h -> "; " + h).orElse(""));
  }

  /** {@code host:port/db}, for messages. */
  String location() {
    String shown = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    return shown + ":" + port + "/" + database;
  }

  @Override
  public String toString() {
    return (tls ? "rediss://" : "redis://")
        + user.map(u -> u + "@").orElse("")
        + location()
        + " (pool of "
        + poolSize
        + ")";
  }
}
