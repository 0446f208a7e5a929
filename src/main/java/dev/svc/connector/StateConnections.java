package dev.svc.connector;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.ConnectionFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.DefaultJedisSocketFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.SslVerifyMode;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.PooledConnectionProvider;

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
   * The ceiling of one reply on a state connection while bound, in place of the client's own (see
   * {@link #redis}): read when a command is sent, on the sending thread, so a subscription bounds
   * each of its messages by what it binds around {@code subscribe}.
   */
  public static final ScopedValue<Long> REDIS_REPLY_CEILING = ScopedValue.newInstance();

  /**
   * A pooled Redis client of a {@code redis} adapter (RESP2, so replies are plain lists and
   * strings), with {@code timeout} as connect and read time-out.
   *
   * <p>Every reply is followed as its bytes arrive ({@link RespFrames}: announced lengths, nesting,
   * numbers) and refused past {@code maxReplyBytes}, its values counted with their overhead; each
   * message of a subscription is a reply of its own. A reply refused, or not valid RESP, drops its
   * connection and fails the command with a {@code JedisConnectionException} that says so: a Redis
   * (or anything between svc and it) answering a length of 2^31, 250,000 levels of arrays or a 2
   * GiB value costs the store's user an error, never the process.
   */
  public static UnifiedJedis redis(ResolvedAdapter adapter, Duration timeout, long maxReplyBytes) {
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
    DefaultJedisClientConfig client = config.build();
    HostAndPort address = new HostAndPort(settings.host(), settings.port());
    RedisReplyBound sockets =
        RedisReplyBound.forState(
            new DefaultJedisSocketFactory(address, client),
            () -> REDIS_REPLY_CEILING.orElse(maxReplyBytes));
    return RedisClient.builder()
        .hostAndPort(address)
        .clientConfig(client)
        .connectionProvider(
            new PooledConnectionProvider(new ConnectionFactory(sockets, client), pool))
        .build();
  }

  /** Where a {@code redis} adapter points ({@code host:port/db}), for messages. */
  public static String redisLocation(ResolvedAdapter adapter) {
    return RedisSettings.of(adapter).location();
  }
}
