package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cache.ResultCache;
import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.connector.Connectors;
import dev.svc.json.Json;
import dev.svc.project.Environment;
import dev.svc.script.UnavailableScriptRunner;
import dev.svc.testing.InJvmMongo;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.TestDatabase;
import dev.svc.testing.TestRedis;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.Condition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Optional inputs without a value through the whole tool pipeline, over the real databases: SQL
 * binds NULL, so {@code ({{ inputs.x }} IS NULL OR col = {{ inputs.x }})} is an optional filter on
 * PostgreSQL, MariaDB and SQLite alike; MongoDB writes {@code null}; Redis refuses, saying why. And
 * a value a database quotes in its error reaches the caller as its placeholder.
 */
class OptionalInputsIT {
  @RegisterExtension static final TestDatabase POSTGRES = TestDatabase.postgres();
  @RegisterExtension static final TestDatabase MYSQL = TestDatabase.mysql();
  @RegisterExtension static final InJvmMongo MONGO = new InJvmMongo();
  @RegisterExtension static final TestRedis REDIS = new TestRedis();

  private static final String SECRET = "my-credit-card-4111";

  /** The tools every SQL database gets; {@code %s} is the statement quoting its value. */
  private static final String SQL_TOOLS =
      """
      == app/tools/reset/config.terse
      description: Drops the table.
      use: db
      statement: DROP TABLE IF EXISTS customers
      == app/tools/create/config.terse
      description: Creates the table.
      use: db
      statement: CREATE TABLE customers (id INTEGER PRIMARY KEY, city VARCHAR(50), tier INTEGER)
      == app/tools/seed/config.terse
      description: Three customers.
      use: db
      statement: INSERT INTO customers VALUES (1, 'Lyon', 1), (2, 'Paris', 2), (3, NULL, 3)
      == app/tools/find/config.terse
      description: Customers, optionally of one city and from a tier up.
      use: db
      statement: |
        SELECT id FROM customers
        WHERE ({{ inputs.city }} IS NULL OR city = {{ inputs.city }})
          AND ({{ inputs.min_tier }} IS NULL OR tier >= {{ inputs.min_tier }})
        ORDER BY id
      inputs:
        city: {optional: true}
        min_tier: {type: int, optional: true}
      == app/tools/find_read_only/config.terse
      description: The same filter in a read-only transaction.
      use: db
      read_only: true
      statement: |
        SELECT id FROM customers
        WHERE ({{ inputs.city }} IS NULL OR city = {{ inputs.city }})
        ORDER BY id
      inputs:
        city: {optional: true}
      == app/tools/quote/config.terse
      description: A statement the database rejects quoting the value.
      use: db
      statement: %s
      inputs:
        value: {}
      """;

  @TempDir Path directory;
  private ProjectRuntime runtime;

  @AfterEach
  void stop() {
    if (runtime != null) {
      runtime.close();
    }
  }

  private void start(String adapter, String tools) {
    String files = ProjectFixture.DEFAULT_ROOT + "== app/adapters/db.terse\n" + adapter + tools;
    runtime =
        ProjectRuntime.start(
            ProjectFixture.model(directory, files),
            new ProjectRuntime.Settings(
                Environment.of(Map.of()),
                directory,
                Connectors::open,
                new UnavailableScriptRunner(),
                ResultCache.DEFAULT_MAX_BYTES));
  }

  private void startSql(String kind) {
    String adapter =
        switch (kind) {
          case "postgres" ->
              "connector: postgres\nconnection_string: \"" + POSTGRES.connectionString() + "\"\n";
          case "mysql" ->
              "connector: mysql\nconnection_string: \"" + MYSQL.connectionString() + "\"\n";
          default -> "connector: sqlite\nconnection_string: \"file:./shop.db\"\n";
        };
    String quoting =
        switch (kind) {
          case "postgres" -> "SELECT CAST({{ inputs.value }} AS INTEGER) AS n";
          case "mysql" -> "INSERT INTO customers (id, city) VALUES ({{ inputs.value }}, 'x')";
          default -> "SELECT json_extract('{}', {{ inputs.value }}) AS v";
        };
    start(adapter, SQL_TOOLS.formatted(quoting));
    for (String tool : new String[] {"reset", "create", "seed"}) {
      assertThat(call(tool, "{}")).isInstanceOf(ToolOutcome.Success.class);
    }
  }

  private ToolOutcome call(String tool, String arguments) {
    return runtime
        .tools()
        .call(
            tool,
            Json.MAPPER.readTree(arguments),
            new Caller("req-1", Headers.NONE, Optional.empty()));
  }

  /** A success whose payload is {@code json} (compared as text: 3 is 3, whatever its width). */
  private static Condition<ToolOutcome> rows(String json) {
    String expected = Json.MAPPER.readTree(json).toString();
    return new Condition<>(
        outcome ->
            outcome instanceof ToolOutcome.Success success
                && success.payload().toString().equals(expected),
        "a success with the payload %s",
        expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"postgres", "mysql", "sqlite"})
  void theOptionalFilterWorksInAReadOnlyToolToo(String kind) {
    // PostgreSQL learns the untyped parameter inside the read-only transaction: it must begin anew
    startSql(kind);

    assertThat(call("find_read_only", "{\"city\": \"Lyon\"}")).is(rows("[{\"id\": 1}]"));
    assertThat(call("find_read_only", "{}")).is(rows("[{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]"));
    assertThat(call("find_read_only", "{\"city\": \"Paris\"}")).is(rows("[{\"id\": 2}]"));
    assertThat(call("seed", "{}"))
        .as("the pooled connection writes again after the read-only calls")
        .isInstanceOf(ToolOutcome.Failure.class) // duplicate keys: the database ran the INSERT
        .satisfies(f -> assertThat(((ToolOutcome.Failure) f).message()).doesNotContain("read"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"postgres", "mysql", "sqlite"})
  void anOptionalFilterLeftOutMatchesEveryRowAndGivenFiltersThem(String kind) {
    startSql(kind);

    assertThat(call("find", "{}")).is(rows("[{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]"));
    assertThat(call("find", "{\"city\": null}"))
        .is(rows("[{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]"));
    assertThat(call("find", "{\"city\": \"Lyon\"}")).is(rows("[{\"id\": 1}]"));
    assertThat(call("find", "{\"min_tier\": 2}")).is(rows("[{\"id\": 2}, {\"id\": 3}]"));
    assertThat(call("find", "{\"city\": \"Paris\", \"min_tier\": 2}")).is(rows("[{\"id\": 2}]"));
    assertThat(call("find", "{\"city\": \"Paris\", \"min_tier\": 3}")).is(rows("[]"));
    assertThat(call("find", "{}")).is(rows("[{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"postgres", "mysql", "sqlite"})
  void aValueTheDatabaseQuotesReachesTheCallerAsItsPlaceholder(String kind) {
    startSql(kind);

    ToolOutcome outcome = call("quote", "{\"value\": \"" + SECRET + "\"}");

    assertThat(outcome)
        .isInstanceOfSatisfying(
            ToolOutcome.Failure.class,
            failure ->
                assertThat(failure.message())
                    .contains("{{ inputs.value }}")
                    .doesNotContain(SECRET)
                    .contains(
                        switch (kind) {
                          case "postgres" -> "invalid input syntax for type integer";
                          case "mysql" -> "Incorrect integer value";
                          default -> "bad JSON path";
                        }));
  }

  @Test
  void mongoWritesAnOptionalInputLeftOutAsNull() {
    start(
        "connector: mongodb\nconnection_string: \"" + MONGO.connectionString() + "\"\n",
        """
        == app/tools/seed/config.terse
        description: Three customers.
        use: db
        statement: |
          {"database": "shop", "command": {"insert": "customers", "documents": [
            {"_id": 1, "city": "Lyon"}, {"_id": 2, "city": "Paris"}, {"_id": 3, "city": null}]}}
        == app/tools/find/config.terse
        description: Customers of one city, or those without one.
        use: db
        statement: |
          {"database": "shop", "command": {"find": "customers",
            "filter": {"city": {{ inputs.city }}}, "sort": {"_id": 1}}}
        inputs:
          city: {optional: true}
        """);
    assertThat(call("seed", "{}")).isInstanceOf(ToolOutcome.Success.class);

    assertThat(call("find", "{}")).is(rows("[{\"_id\": 3, \"city\": null}]"));
    assertThat(call("find", "{\"city\": \"Lyon\"}")).is(rows("[{\"_id\": 1, \"city\": \"Lyon\"}]"));
  }

  @Test
  void redisRefusesAnOptionalInputLeftOutSayingWhy() {
    start(
        "connector: redis\nconnection_string: \"" + REDIS.connectionString(0) + "\"\n",
        """
        == app/tools/get/config.terse
        description: One customer's name.
        use: db
        statement: GET "%scustomer:{{ inputs.id }}"
        inputs:
          id: {optional: true}
        """
            .formatted(REDIS.prefix()));

    assertThat(call("get", "{}"))
        .isEqualTo(
            new ToolOutcome.Failure(
                "the statement uses input `id`, which has no value (a Redis command has no null"
                    + " argument: give the input a default or make it required)"));
    assertThat(call("get", "{\"id\": \"42\"}")).is(rows("null"));
  }
}
