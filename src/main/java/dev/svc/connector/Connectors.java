package dev.svc.connector;

import dev.svc.model.ConnectorKind;
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
      case MONGODB -> new MongoConnector(adapter);
      case REDIS -> new RedisConnector(adapter);
    };
  }

  /**
   * Does, ahead of time, the costliest part of opening the first adapter of {@code kind} that needs
   * no connection: SQLite's native library (found, mapped and linked: ~10–20 ms on a small machine)
   * and its driver's settings classes. A start calls it on a thread of its own while it does other
   * work; it never fails, and what it could not do the adapter's opening does (and reports) again.
   */
  public static void preload(ConnectorKind kind) {
    try {
      if (kind == ConnectorKind.SQLITE) {
        org.sqlite.SQLiteJDBCLoader.initialize();
        new org.sqlite.SQLiteConfig();
      }
    } catch (Exception | LinkageError e) {
      // the adapter's own opening meets the same problem and says it where it belongs
    }
  }

  private static Connector sqlite(ResolvedAdapter adapter) {
    String text = adapter.connectionString().strip();
    int separator = text.indexOf("://");
    String scheme = separator < 0 ? "" : text.substring(0, separator).toLowerCase(Locale.ROOT);
    return switch (scheme) {
      case "", "file" -> new JdbcConnector(adapter, SqliteDialect.INSTANCE);
      case "libsql", "https", "http" -> new LibsqlConnector(adapter);
      case "ws", "wss" ->
          throw ConnectorUnavailableException.unsupportedScheme(
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
