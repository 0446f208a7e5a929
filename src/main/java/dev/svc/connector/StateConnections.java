package dev.svc.connector;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
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

  /** How long a state connection waits for the database to send anything before it gives up. */
  public static final Duration POSTGRES_READ_TIMEOUT = Duration.ofSeconds(15);

  /**
   * Opens one PostgreSQL connection of a {@code postgres} adapter, for svc's own state (tasks,
   * their events, push configs). A database that stops answering (frozen, or a network that drops
   * packets without a reset) fails a read after {@link #POSTGRES_READ_TIMEOUT} instead of holding
   * the request for as long as TCP takes to give up; a statement is ended by the server after 10 s,
   * a wait for a lock after 5 s, so a request that needs the store gets its error in seconds.
   */
  public static Connection postgres(ResolvedAdapter adapter) throws SQLException {
    JdbcSettings settings = PostgresDialect.INSTANCE.settings(adapter);
    Connection connection =
        new JdbcConnections(PostgresDialect.INSTANCE, settings, adapter.toString()).connect();
    try {
      connection.setNetworkTimeout(Runnable::run, (int) POSTGRES_READ_TIMEOUT.toMillis());
      try (Statement statement = connection.createStatement()) {
        statement.execute("SET statement_timeout = 10000; SET lock_timeout = 5000");
      }
      return connection;
    } catch (SQLException | RuntimeException e) {
      try {
        connection.close();
      } catch (SQLException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
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
