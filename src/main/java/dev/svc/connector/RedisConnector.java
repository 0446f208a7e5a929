package dev.svc.connector;

import dev.svc.call.Deadline;
import dev.svc.json.JsonFootprint;
import dev.svc.model.Statement;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionFactory;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.DefaultJedisSocketFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.SslVerifyMode;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import tools.jackson.databind.JsonNode;

/**
 * The Redis connector: Jedis connections speaking RESP3 (so hashes arrive as maps), in a pool of
 * {@code pool_size}. A statement's arguments are already split by the compiler; placeholders are
 * replaced inside their argument by the value's text, so a value is always exactly one argument.
 *
 * <p><b>Deadlines.</b> A call waits for a free connection at most {@link
 * JdbcConnector#MAX_POOL_WAIT} (never past its deadline); the command gets the rest as the socket's
 * read time-out. A command that times out or is interrupted leaves its connection mid-reply, so the
 * connection is discarded. Redis runs one command at a time and has no cancel: a command past its
 * deadline finishes at the server.
 *
 * <p><b>Memory.</b> Jedis reads a reply whole: a command's reply cannot be stopped half-way, so
 * {@link RedisReadBounds} bounds a range read to the call's window before it is sent, and sizes a
 * whole-key read ({@code HGETALL}, {@code SMEMBERS}, {@code KEYS}) first, refusing one past 100,000
 * elements. As it arrives, every reply is followed and counted against the call's ceiling, its
 * bytes and 64 more for each value ({@link RedisReplyBound}), so a reply of millions of tiny
 * elements (an {@code EVAL}, a {@code SORT}) stops before Jedis has built it. The reply is then cut
 * to the call's window and counted in its {@link ResultMemory}; one past the ceiling is refused
 * rather than answered.
 *
 * <p><b>Errors.</b> A Redis error reply is a {@link StatementFailedException} with Redis's own line
 * (without the arguments it quotes); an unreachable server, refused credentials or a broken
 * connection is a {@link ConnectorUnavailableException}.
 */
public final class RedisConnector implements Connector {
  static final int CONNECT_TIMEOUT_MILLIS = 10_000;

  /**
   * Commands that change the state of the connection they run on: on a pooled connection they would
   * leak into later calls (or never return), so they are refused.
   */
  private static final Set<String> CONNECTION_STATE =
      Set.of(
          "SELECT",
          "AUTH",
          "HELLO",
          "RESET",
          "QUIT",
          "MULTI",
          "EXEC",
          "DISCARD",
          "WATCH",
          "UNWATCH",
          "SUBSCRIBE",
          "PSUBSCRIBE",
          "SSUBSCRIBE",
          "UNSUBSCRIBE",
          "PUNSUBSCRIBE",
          "SUNSUBSCRIBE",
          "MONITOR",
          "SYNC",
          "PSYNC",
          "READONLY",
          "READWRITE");

  private static final Set<String> CLIENT_STATE =
      Set.of("REPLY", "TRACKING", "SETNAME", "CACHING", "NO-EVICT", "NO-TOUCH", "SETINFO");

  private static final Statement.Redis PING =
      new Statement.Redis("PING", List.of(List.of(new Statement.Literal("PING"))));

  private final RedisSettings settings;
  private final String description;
  private final ConnectionPool pool;
  private final AtomicBoolean closed = new AtomicBoolean();

  RedisConnector(ResolvedAdapter adapter) {
    this.settings = RedisSettings.of(adapter);
    this.description = "redis adapter `" + adapter.name() + "`";
    DefaultJedisClientConfig.Builder config =
        DefaultJedisClientConfig.builder()
            .resp3()
            .connectionTimeoutMillis(CONNECT_TIMEOUT_MILLIS)
            .socketTimeoutMillis(CONNECT_TIMEOUT_MILLIS)
            .database(settings.database())
            .clientName("svc");
    if (settings.tls()) { // the JDK's trust store; the certificate must name the host
      config.sslOptions(SslOptions.builder().sslVerifyMode(SslVerifyMode.FULL).build());
    }
    settings.user().ifPresent(config::user);
    settings.password().ifPresent(config::password);
    GenericObjectPoolConfig<Connection> poolConfig = new GenericObjectPoolConfig<>();
    poolConfig.setMaxTotal(settings.poolSize());
    poolConfig.setMaxIdle(settings.poolSize());
    poolConfig.setMinIdle(0);
    poolConfig.setFairness(true); // waiters are served in arrival order
    poolConfig.setBlockWhenExhausted(true);
    poolConfig.setTestWhileIdle(true); // idle connections the server dropped are found early
    poolConfig.setTimeBetweenEvictionRuns(Duration.ofSeconds(30));
    poolConfig.setMinEvictableIdleDuration(Duration.ofMinutes(5));
    poolConfig.setJmxEnabled(false);
    JedisClientConfig client = config.build();
    HostAndPort address = new HostAndPort(settings.host(), settings.port());
    this.pool =
        new ConnectionPool(
            new ConnectionFactory(
                RedisReplyBound.forCalls(new DefaultJedisSocketFactory(address, client)), client),
            poolConfig);
  }

  RedisSettings settings() {
    return settings;
  }

  /** Opens a connection (logging in and selecting the database) and sends {@code PING}. */
  @Override
  public Optional<PoolUsage> pool() {
    return Optional.of(
        new PoolUsage(
            pool.getNumActive(), pool.getNumIdle(), settings.poolSize(), pool.getNumWaiters()));
  }

  @Override
  public void check(Deadline deadline) {
    try {
      JsonNode pong = execute(PING, Map.of(), deadline);
      if (!pong.isString() || !pong.stringValue().equals("PONG")) {
        throw new ConnectorUnavailableException(
            description + " answered PING with " + pong + ", not PONG");
      }
    } catch (StatementFailedException e) {
      throw new ConnectorUnavailableException(
          "cannot connect to " + description + " at " + settings.location() + ": " + e.getMessage(),
          e);
    }
  }

  @Override
  public JsonNode execute(
      Statement statement,
      Map<String, Object> values,
      Deadline deadline,
      StatementOptions options) {
    if (!(statement instanceof Statement.Redis redis)) {
      throw new IllegalArgumentException(description + " runs Redis commands only");
    }
    try {
      return command(redis, values, deadline, options);
    } catch (StatementFailedException | ConnectorUnavailableException e) {
      throw BoundValueRedaction.of(values).apply(e);
    }
  }

  private JsonNode command(
      Statement.Redis redis,
      Map<String, Object> values,
      Deadline deadline,
      StatementOptions options) {
    if (closed.get()) {
      throw new ConnectorUnavailableException(description + " is closed");
    }
    List<byte[]> arguments = arguments(redis, values);
    List<String> words = words(arguments);
    refuseConnectionState(words);
    RedisReadBounds.Plan plan = RedisReadBounds.plan(arguments, options.readLimit());
    Duration timeout = deadline.timeout();
    Connection connection = borrow(deadline);
    boolean healthy = true;
    try {
      long remaining = deadline.remainingNanos();
      if (remaining <= 0) {
        throw new StatementFailedException(JdbcFailures.statementTimedOut(timeout), true, null);
      }
      connection.setSoTimeout(millis(remaining));
      if (plan.probe().isPresent()) {
        RedisReadBounds.check(
            plan,
            connection.executeCommand(command(plan.probe().get())),
            ResultMemory.counting(ResultMemory.Account::ceilingBytes));
      }
      Object reply = connection.executeCommand(command(plan.arguments()));
      JsonNode result = options.window(RedisReplies.json(reply, words));
      ResultMemory.counting(memory -> {
        memory.add(JsonFootprint.of(result));
        return result;
      });
      return result;
    } catch (JedisConnectionException e) {
      healthy = false; // the reply may still be on its way: the connection cannot be reused
      ReplyTooLargeException tooLarge = ReplyTooLargeException.among(e);
      if (tooLarge != null) {
        throw ResultRefusedException.ceiling(tooLarge.ceilingBytes());
      }
      RespFrames.Malformed malformed = cause(e, RespFrames.Malformed.class);
      if (malformed != null) {
        throw new ConnectorUnavailableException(
            "lost the connection to "
                + description
                + " at "
                + settings.location()
                + ": "
                + malformed.getMessage(),
            e);
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new StatementFailedException(
            "the call was cancelled before the command finished", false, e);
      }
      if (causedBy(e, SocketTimeoutException.class)) {
        throw new StatementFailedException(
            "the command ran longer than "
                + JdbcFailures.words(timeout)
                + " and was abandoned (Redis cannot cancel a running command)",
            true,
            e);
      }
      throw NetworkFailures.lostConnection(description, settings.location(), e);
    } catch (JedisDataException e) {
      throw new StatementFailedException(RedisReplies.message(e.getMessage()), false, e);
    } finally {
      release(connection, healthy);
    }
  }

  private static CommandArguments command(List<byte[]> arguments) {
    byte[] name = arguments.getFirst();
    CommandArguments command = new CommandArguments(() -> name);
    arguments.subList(1, arguments.size()).forEach(command::add);
    return command;
  }

  /** Each argument's text with its placeholders replaced; a value is never split. */
  static List<byte[]> arguments(Statement.Redis redis, Map<String, Object> values) {
    List<byte[]> arguments = new ArrayList<>(redis.arguments().size());
    for (List<Statement.Segment> argument : redis.arguments()) {
      StringBuilder text = new StringBuilder();
      for (Statement.Segment segment : argument) {
        switch (segment) {
          case Statement.Literal literal -> text.append(literal.text());
          case Statement.Placeholder placeholder -> {
            Object value = values.get(placeholder.input());
            if (value == null) {
              throw new StatementFailedException(
                  "the statement uses input `"
                      + placeholder.input()
                      + "`, which has no value"
                      + (values.containsKey(placeholder.input())
                          ? " (a Redis command has no null argument: give the input a default or"
                              + " make it required)"
                          : ""),
                  false,
                  null);
            }
            text.append(ParameterBinder.text(value));
          }
        }
      }
      arguments.add(text.toString().getBytes(StandardCharsets.UTF_8));
    }
    return arguments;
  }

  private static List<String> words(List<byte[]> arguments) {
    return arguments.stream()
        .limit(2)
        .map(a -> new String(a, StandardCharsets.UTF_8).toUpperCase(Locale.ROOT))
        .toList();
  }

  private static void refuseConnectionState(List<String> words) {
    String name = words.getFirst();
    boolean client =
        name.equals("CLIENT") && words.size() > 1 && CLIENT_STATE.contains(words.get(1));
    if (CONNECTION_STATE.contains(name) || client) {
      String command = client ? name + " " + words.get(1) : name;
      String hint =
          name.equals("SELECT")
              ? "; choose the database with /<db_number> in the adapter's connection string"
              : "";
      throw new StatementFailedException(
          "svc does not run `"
              + command
              + "`: it changes the state of a connection that later calls share"
              + hint,
          false,
          null);
    }
  }

  /**
   * A pooled connection, waiting at most {@link JdbcConnector#MAX_POOL_WAIT} and never past the
   * deadline; "pool exhausted" names the wait the call was given.
   */
  private Connection borrow(Deadline deadline) {
    Duration maxWait = JdbcConnector.MAX_POOL_WAIT;
    Duration given = deadline.timeout().compareTo(maxWait) < 0 ? deadline.timeout() : maxWait;
    try {
      long left = Math.min(maxWait.toNanos(), deadline.remainingNanos());
      Connection connection = pool.borrowObject(Duration.ofNanos(Math.max(0, left)));
      connection.setHandlingPool(pool);
      return connection;
    } catch (NoSuchElementException e) {
      if (closed.get()) {
        throw new ConnectorUnavailableException(description + " is closed");
      }
      throw new ConnectorUnavailableException(
          "pool exhausted: all "
              + settings.poolSize()
              + " connections of "
              + description
              + " stayed busy for "
              + JdbcFailures.words(given));
    } catch (IllegalStateException e) {
      throw new ConnectorUnavailableException(description + " is closed");
    } catch (JedisException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw new StatementFailedException(
            "the call was cancelled while connecting to " + description, false, e);
      }
      throw new ConnectorUnavailableException(
          "cannot connect to " + description + " at " + settings.location() + ": " + reason(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StatementFailedException(
          "the call was cancelled while waiting for a connection to " + description, false, e);
    } catch (Exception e) {
      throw new ConnectorUnavailableException(
          "cannot connect to " + description + " at " + settings.location() + ": " + reason(e), e);
    }
  }

  /** Why a connection could not be opened, in plain words. */
  private String reason(Exception e) {
    if (e instanceof JedisDataException data) {
      String message = RedisReplies.message(data.getMessage());
      String upper = message.toUpperCase(Locale.ROOT);
      if (upper.startsWith("WRONGPASS")
          || upper.startsWith("NOAUTH")
          || upper.contains("INVALID PASSWORD")
          || upper.contains("INVALID USERNAME")) {
        return "authentication failed"
            + settings.user().map(u -> " for user `" + u + "`").orElse("")
            + " ("
            + message
            + ")";
      }
      if (upper.contains("UNKNOWN COMMAND") && upper.contains("HELLO")) {
        return "the server does not speak RESP3 (svc needs Redis 6 or newer)";
      }
      return message;
    }
    return NetworkFailures.reason(e)
        .map(r ->
            r.equals("timed out") ? "timed out after " + CONNECT_TIMEOUT_MILLIS / 1000 + " s" : r)
        .orElse(SqlDialect.firstLine(e.getMessage()));
  }

  private void release(Connection connection, boolean healthy) {
    try {
      if (healthy && !connection.isBroken()) {
        pool.returnObject(connection);
      } else {
        pool.invalidateObject(connection);
      }
    } catch (Exception e) {
      // the pool closed meanwhile: the connection is closed either way
    }
  }

  /** Closes idle connections now and busy ones when their call returns them. Never throws. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        pool.close();
      } catch (RuntimeException e) {
        // closing is best effort
      }
    }
  }

  @Override
  public String toString() {
    return "RedisConnector(" + description + ", pool of " + settings.poolSize() + ")";
  }

  private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
    return cause(failure, type) != null;
  }

  /** The first of {@code failure}'s causes (itself included) of {@code type}, or null. */
  private static <T extends Throwable> T cause(Throwable failure, Class<T> type) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static int millis(long nanos) {
    return Math.clamp((nanos + 999_999) / 1_000_000, 1, Integer.MAX_VALUE);
  }
}
