package dev.svc.connector;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.SslVerifyMode;
import redis.clients.jedis.UnifiedJedis;

/**
 * Connections for svc's own shared state (A2A tasks in a database several instances share), opened
 * from an adapter exactly as its connector would open them: the same connection strings, options,
 * credentials and TLS settings, but outside the connector's pool, so state traffic never waits
 * behind tool calls.
 */
public final class StateConnections {
  private StateConnections() {}

  /** Opens one PostgreSQL connection of a {@code postgres} adapter. */
  public static Connection postgres(ResolvedAdapter adapter) throws SQLException {
    JdbcSettings settings = PostgresDialect.INSTANCE.settings(adapter);
    return new JdbcConnections(PostgresDialect.INSTANCE, settings, adapter.toString()).connect();
  }

  /** How many connections the adapter's pool holds ({@code max_connections}, default 8). */
  public static int postgresPoolSize(ResolvedAdapter adapter) {
    return PostgresDialect.INSTANCE.settings(adapter).poolSize();
  }

  /** Where a {@code postgres} adapter points ({@code host:port}), for messages: no credentials. */
  public static String postgresLocation(ResolvedAdapter adapter) {
    return PostgresDialect.INSTANCE.settings(adapter).location();
  }

  /**
   * A pooled Redis client of a {@code redis} adapter (RESP2, so replies are plain lists and
   * strings), with {@code timeout} as connect and read time-out.
   */
  public static UnifiedJedis redis(ResolvedAdapter adapter, Duration timeout) {
    RedisSettings settings = RedisSettings.of(adapter);
    DefaultJedisClientConfig.Builder config =
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis((int) timeout.toMillis())
            .socketTimeoutMillis((int) timeout.toMillis())
            .database(settings.database())
            .clientName("svc-state");
    if (settings.tls()) {
      config.sslOptions(SslOptions.builder().sslVerifyMode(SslVerifyMode.FULL).build());
    }
    settings.user().ifPresent(config::user);
    settings.password().ifPresent(config::password);
    GenericObjectPoolConfig<redis.clients.jedis.Connection> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(settings.poolSize() + 1); // one more: the subscription holds one
    pool.setMaxIdle(settings.poolSize() + 1);
    pool.setMinIdle(0);
    pool.setMaxWait(timeout);
    pool.setBlockWhenExhausted(true);
    pool.setJmxEnabled(false);
    return RedisClient.builder()
        .hostAndPort(new HostAndPort(settings.host(), settings.port()))
        .clientConfig(config.build())
        .poolConfig(pool)
        .build();
  }

  /** Where a {@code redis} adapter points ({@code host:port/db}), for messages. */
  public static String redisLocation(ResolvedAdapter adapter) {
    return RedisSettings.of(adapter).location();
  }
}
