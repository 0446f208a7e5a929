package dev.svc.connector;

import java.util.Locale;

/**
 * Picks the connector for an adapter: the one place that lists every {@link
 * dev.svc.model.ConnectorKind}, so adding a kind fails to compile until it is handled here.
 */
public final class Connectors {
  private Connectors() {}

  /**
   * The connector for {@code adapter}. Translates its connection string and options but opens no
   * connection: {@link Connector#check} does that at start.
   *
   * @throws ConnectorUnavailableException when the connector kind or the connection string's scheme
   *     is not supported, or the connection string or options are malformed
   */
  public static Connector open(ResolvedAdapter adapter) {
    return switch (adapter.connector()) {
      case POSTGRES -> new JdbcConnector(adapter, PostgresDialect.INSTANCE);
      case MYSQL -> new JdbcConnector(adapter, MysqlDialect.INSTANCE);
      case SQLITE -> sqlite(adapter);
      case MONGODB, REDIS ->
          throw new ConnectorUnavailableException(
              "the " + adapter.connector().wireName() + " connector is not available yet");
    };
  }

  private static Connector sqlite(ResolvedAdapter adapter) {
    String text = adapter.connectionString().strip();
    int separator = text.indexOf("://");
    String scheme = separator < 0 ? "" : text.substring(0, separator).toLowerCase(Locale.ROOT);
    return switch (scheme) {
      case "", "file" -> new JdbcConnector(adapter, SqliteDialect.INSTANCE);
      case "libsql", "https", "http" ->
          throw new ConnectorUnavailableException(
              "sqlite adapter `" + adapter.name() + "`: remote libSQL is not available yet");
      case "ws", "wss" ->
          throw new ConnectorUnavailableException(
              "sqlite adapter `"
                  + adapter.name()
                  + "` uses the unsupported scheme `"
                  + scheme
                  + "://`; use libsql://, https:// or http:// for a remote database");
      default ->
          throw new ConnectorUnavailableException(
              "sqlite adapter `"
                  + adapter.name()
                  + "` uses the unknown scheme `"
                  + scheme
                  + "://`; write :memory:, file:./<path>.db or an absolute path");
    };
  }
}
