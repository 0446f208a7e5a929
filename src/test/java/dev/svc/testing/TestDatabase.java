package dev.svc.testing;

import dev.svc.connector.ResolvedAdapter;
import dev.svc.model.ConnectorKind;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Owns a real database on a server running on this machine: creates a uniquely named database
 * ({@code svc_it_<random>}) before the test class and drops it afterwards. A server that is not
 * running fails the tests with a message saying how to start it; tests never skip.
 *
 * <pre>
 * &#64;RegisterExtension static final TestDatabase db = TestDatabase.postgres();
 * </pre>
 *
 * The servers: PostgreSQL on 127.0.0.1:5432 (user {@code postgres}, else {@code root}; trust auth),
 * MariaDB or MySQL on 127.0.0.1:3306 (user {@code root}, empty password). Set {@code
 * SVC_IT_POSTGRES_USER}, {@code SVC_IT_POSTGRES_PORT}, {@code SVC_IT_MYSQL_USER}, {@code
 * SVC_IT_MYSQL_PASSWORD} or {@code SVC_IT_MYSQL_PORT} to point elsewhere.
 */
public final class TestDatabase implements BeforeAllCallback, AfterAllCallback {
  private final ConnectorKind kind;
  private final String host = "127.0.0.1";
  private final int port;
  private final List<String> users;
  private final String password;
  private String user;
  private String name;

  private TestDatabase(ConnectorKind kind, int port, List<String> users, String password) {
    this.kind = kind;
    this.port = port;
    this.users = users;
    this.password = password;
  }

  public static TestDatabase postgres() {
    return new TestDatabase(
        ConnectorKind.POSTGRES,
        Integer.parseInt(env("SVC_IT_POSTGRES_PORT").orElse("5432")),
        env("SVC_IT_POSTGRES_USER").map(List::of).orElse(List.of("postgres", "root")),
        "");
  }

  public static TestDatabase mysql() {
    return new TestDatabase(
        ConnectorKind.MYSQL,
        Integer.parseInt(env("SVC_IT_MYSQL_PORT").orElse("3306")),
        List.of(env("SVC_IT_MYSQL_USER").orElse("root")),
        env("SVC_IT_MYSQL_PASSWORD").orElse(""));
  }

  @Override
  public void beforeAll(ExtensionContext context) throws SQLException {
    name = "svc_it_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    try (Connection admin = admin();
        Statement create = admin.createStatement()) {
      create.execute("CREATE DATABASE " + name);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws SQLException {
    if (name == null || user == null) {
      return;
    }
    try (Connection admin = admin();
        Statement drop = admin.createStatement()) {
      drop.execute(
          kind == ConnectorKind.POSTGRES
              ? "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"
              : "DROP DATABASE IF EXISTS " + name);
    }
  }

  /** The database's name: {@code svc_it_<random>}. */
  public String name() {
    return name;
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  public String user() {
    return user;
  }

  /** The connection string an adapter file would hold for this database. */
  public String connectionString() {
    return kind == ConnectorKind.POSTGRES
        ? "postgresql://" + user + "@" + host + ":" + port + "/" + name
        : user + ":" + password + "@tcp(" + host + ":" + port + ")/" + name;
  }

  /**
   * The URL form of a MySQL connection string, {@code mysql://user[:password]@host:port/db}, the
   * one a user coming from other tools writes (the password percent-encoded).
   */
  public String mysqlUrl() {
    String secret =
        password.isEmpty()
            ? ""
            : ":" + URLEncoder.encode(password, StandardCharsets.UTF_8).replace("+", "%20");
    return "mysql://" + user + secret + "@" + host + ":" + port + "/" + name;
  }

  /** An adapter named {@code db} on this database. */
  public ResolvedAdapter adapter(Map<String, String> options) {
    return adapter(connectionString(), options);
  }

  /** An adapter named {@code db} of this database's kind with another connection string. */
  public ResolvedAdapter adapter(String connectionString, Map<String, String> options) {
    return new ResolvedAdapter("db", kind, connectionString, options, Path.of("."));
  }

  private Connection admin() {
    SQLException last = null;
    for (String candidate : users) {
      Properties properties = new Properties();
      properties.setProperty("user", candidate);
      properties.setProperty("password", password);
      try {
        Connection connection =
            DriverManager.getConnection(
                kind == ConnectorKind.POSTGRES
                    ? "jdbc:postgresql://" + host + ":" + port + "/postgres"
                    : "jdbc:mysql://" + host + ":" + port + "/",
                properties);
        user = candidate;
        return connection;
      } catch (SQLException e) {
        last = e;
      }
    }
    throw new IllegalStateException(notRunning(), last);
  }

  private String notRunning() {
    return switch (kind) {
      case POSTGRES ->
          "PostgreSQL is not reachable on "
              + host
              + ":"
              + port
              + " as user "
              + String.join(" or ", users)
              + ". Start it (Debian: `sudo service postgresql start` or `sudo pg_ctlcluster 15"
              + " main start`) with trust auth for local TCP, or set SVC_IT_POSTGRES_USER /"
              + " SVC_IT_POSTGRES_PORT.";
      default ->
          "MariaDB/MySQL is not reachable on "
              + host
              + ":"
              + port
              + " as user "
              + users.getFirst()
              + ". Start it (Debian: `sudo service mariadb start`) with root allowed over TCP"
              + " with an empty password, or set SVC_IT_MYSQL_USER / SVC_IT_MYSQL_PASSWORD /"
              + " SVC_IT_MYSQL_PORT.";
    };
  }

  private static Optional<String> env(String name) {
    return Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank());
  }
}
