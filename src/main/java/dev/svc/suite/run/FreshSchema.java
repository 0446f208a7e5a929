package dev.svc.suite.run;

import dev.svc.connector.ResolvedAdapter;
import dev.svc.connector.StateConnections;
import dev.svc.log.Log;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A throw-away PostgreSQL schema for one suite ({@code fresh_schema: true}): created on the tool's
 * database before the suite, made the whole search path of the tool's connections (pgjdbc's {@code
 * currentSchema}), and dropped with everything in it afterwards.
 */
final class FreshSchema implements AutoCloseable {
  private static final Log LOG = Log.tagged("test");

  private final ResolvedAdapter adapter;
  private final String name;

  private FreshSchema(ResolvedAdapter adapter, String name) {
    this.adapter = adapter;
    this.name = name;
  }

  /**
   * Creates a schema named {@code svc_test_<random>} on the adapter's database.
   *
   * @throws Fixtures.FixtureException when it cannot be created (the suite cannot run)
   */
  static FreshSchema create(ResolvedAdapter adapter) {
    String name = "svc_test_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    try (Connection connection = StateConnections.postgres(adapter);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + name);
    } catch (SQLException e) {
      throw new Fixtures.FixtureException(
          "cannot create a fresh schema on adapter `"
              + adapter.name()
              + "` ("
              + StateConnections.postgresLocation(adapter)
              + "): "
              + firstLine(e.getMessage()),
          e);
    }
    return new FreshSchema(adapter, name);
  }

  String name() {
    return name;
  }

  /** {@code adapter} with its connections' search path starting at this schema. */
  ResolvedAdapter applyTo(ResolvedAdapter adapter) {
    Map<String, String> options = new LinkedHashMap<>(adapter.options());
    // the schema alone: an unqualified name never reaches an existing table (a fixture's DROP TABLE
    // IF EXISTS cannot drop one in public); built-ins stay found through pg_catalog
    options.put("currentSchema", name);
    return new ResolvedAdapter(
        adapter.name(),
        adapter.connector(),
        adapter.connectionString(),
        options,
        adapter.projectDirectory(),
        adapter.dataDirectory());
  }

  /** Drops the schema and everything in it; a failure is logged, never thrown. */
  @Override
  public void close() {
    try (Connection connection = StateConnections.postgres(adapter);
        Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
    } catch (SQLException e) {
      LOG.warn(
          "could not drop the test schema", "schema", name, "error", firstLine(e.getMessage()));
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "(no message)";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
