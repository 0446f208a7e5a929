package dev.svc.testing;

import dev.svc.connector.ResolvedAdapter;
import dev.svc.model.ConnectorKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Owns a slice of the real Redis server on this machine: every key a test class writes starts with
 * a unique prefix ({@code svc_it_<random>:}), and every ACL user it creates with {@link
 * #createUser} is named with it; both are deleted after the class, in every database number used. A
 * server that is not running fails the tests with a message saying how to start it; tests never
 * skip.
 *
 * <pre>
 * &#64;RegisterExtension static final TestRedis redis = new TestRedis();
 * </pre>
 *
 * The server: 127.0.0.1:6379 without a password for the default user; set {@code SVC_IT_REDIS_PORT}
 * to point elsewhere.
 */
public final class TestRedis implements BeforeAllCallback, AfterAllCallback {
  private final String host = "127.0.0.1";
  private final int port =
      Integer.parseInt(
          Optional.ofNullable(System.getenv("SVC_IT_REDIS_PORT"))
              .filter(p -> !p.isBlank())
              .orElse("6379"));
  private final Set<Integer> databases = ConcurrentHashMap.newKeySet();
  private final List<String> users = new ArrayList<>();
  private String prefix;

  @Override
  public void beforeAll(ExtensionContext context) {
    prefix = "svc_it_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()) + ":";
    run(0, "PING");
  }

  @Override
  public void afterAll(ExtensionContext context) {
    for (int database : databases) {
      String cursor = "0";
      do {
        List<?> page =
            (List<?>) run(database, "SCAN", cursor, "MATCH", prefix + "*", "COUNT", "1000");
        cursor = text(page.get(0));
        for (Object key : (List<?>) page.get(1)) {
          run(database, "DEL", text(key));
        }
      } while (!cursor.equals("0"));
    }
    synchronized (users) {
      for (String user : users) {
        run(0, "ACL", "DELUSER", user);
      }
    }
  }

  /** What every key of this test class starts with: {@code svc_it_<random>:}. */
  public String prefix() {
    return prefix;
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  /** {@code redis://127.0.0.1:6379/<database>}. */
  public String connectionString(int database) {
    databases.add(database);
    return "redis://" + host + ":" + port + "/" + database;
  }

  /** An adapter named {@code db} on database 0 of this server. */
  public ResolvedAdapter adapter(Map<String, String> options) {
    return adapter(connectionString(0), options);
  }

  public ResolvedAdapter adapter(String connectionString, Map<String, String> options) {
    return new ResolvedAdapter("db", ConnectorKind.REDIS, connectionString, options, Path.of("."));
  }

  /**
   * Creates an ACL user (named with the prefix) with {@code password}, allowed every command on
   * keys with the prefix; deleted after the class.
   */
  public String createUser(String name, String password) {
    String user = prefix.replace(":", "_") + name;
    run(0, "ACL", "SETUSER", user, "reset", "on", ">" + password, "~" + prefix + "*", "+@all");
    synchronized (users) {
      users.add(user);
    }
    return user;
  }

  /** Runs one command as the default user on {@code database}; the reply as Jedis decodes it. */
  public Object run(int database, String... arguments) {
    databases.add(database);
    try (Connection connection =
        new Connection(
            new HostAndPort(host, port),
            DefaultJedisClientConfig.builder().resp3().database(database).build())) {
      CommandArguments command =
          new CommandArguments(() -> arguments[0].getBytes(StandardCharsets.UTF_8));
      for (int i = 1; i < arguments.length; i++) {
        command.add(arguments[i].getBytes(StandardCharsets.UTF_8));
      }
      return connection.executeCommand(command);
    } catch (JedisConnectionException e) {
      throw new IllegalStateException(
          "Redis is not reachable on "
              + host
              + ":"
              + port
              + ". Start it with scripts/services.sh (Debian: `sudo apt-get install redis-server`),"
              + " or set SVC_IT_REDIS_PORT.",
          e);
    }
  }

  /** A reply element as text. */
  public static String text(Object reply) {
    return reply instanceof byte[] bytes
        ? new String(bytes, StandardCharsets.UTF_8)
        : String.valueOf(reply);
  }
}
