package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.call.Deadline;
import dev.svc.compile.StatementFixture;
import dev.svc.model.ConnectorKind;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What every SQL connector does, run against a real database by each {@code *ConnectorIT}: typed
 * binding, results, placeholders in literals, injection attempts, errors and deadlines. Statements
 * go through the real statement compiler. {@link JdbcConnectorContract} adds what the JDBC pool
 * does.
 */
abstract class SqlConnectorContract {
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final JsonMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  Connector connector;

  abstract ConnectorKind kind();

  /** An adapter named {@code db} on this test's database. */
  abstract ResolvedAdapter adapter(Map<String, String> options);

  /** {@code items(id, name, price, active, created, note)} in this database's types. */
  abstract String createItems();

  /** A statement that runs for about {@code seconds} seconds. */
  abstract String sleep(int seconds);

  /** A statement whose rows are {@code {"g": 1}} to {@code {"g": n}}, in that order. */
  abstract String numbers(long n);

  /**
   * A statement the database rejects with a message quoting the value of input {@code value} (a
   * string that is no number).
   */
  abstract String statementQuotingItsValue();

  /** Part of the database's message about it, the value replaced by its placeholder. */
  abstract String messageQuotingThePlaceholder();

  /** A value a model must never see echoed back: it stands for a secret. */
  static final String SECRET = "my-credit-card-4111";

  @BeforeEach
  void createItemsTable() {
    connector = Connectors.open(adapter(Map.of()));
    run("DROP TABLE IF EXISTS items", Map.of());
    run(createItems(), Map.of());
    String insert =
        "INSERT INTO items (id, name, price, active, created, note) VALUES ({{ inputs.id }},"
            + " {{ inputs.name }}, {{ inputs.price }}, {{ inputs.active }}, {{ inputs.created }},"
            + " {{ inputs.note }})";
    run(
        insert,
        values(
            "id",
            1L,
            "name",
            "apple",
            "price",
            1.5,
            "active",
            true,
            "created",
            at("2024-05-01T10:00:00Z"),
            "note",
            null));
    run(
        insert,
        values(
            "id",
            2L,
            "name",
            "banana",
            "price",
            0.25,
            "active",
            false,
            "created",
            at("2024-06-01T12:30:00Z"),
            "note",
            "ripe"));
    run(
        insert,
        values(
            "id",
            3L,
            "name",
            "cherry",
            "price",
            12.0,
            "active",
            true,
            "created",
            at("2024-07-01T08:00:00Z"),
            "note",
            null));
  }

  @AfterEach
  void closeConnector() {
    connector.close();
  }

  @Test
  void bindsEveryInputTypeAsAParameter() {
    JsonNode rows =
        run(
            "SELECT id, name FROM items WHERE id >= {{ inputs.min_id }} AND price >"
                + " {{ inputs.min_price }} AND name <> {{ inputs.not_name }} AND active ="
                + " {{ inputs.active }} AND created >= {{ inputs.since }} ORDER BY id",
            values(
                "min_id",
                1L,
                "min_price",
                1.0,
                "not_name",
                "zzz",
                "active",
                true,
                "since",
                at("2024-01-01T00:00:00Z")));

    assertJson(rows, "[{\"id\": 1, \"name\": \"apple\"}, {\"id\": 3, \"name\": \"cherry\"}]");
  }

  @Test
  void aNullInputIsBoundAsSqlNull() {
    JsonNode rows = run("SELECT id FROM items WHERE note IS NULL ORDER BY id", Map.of());

    assertJson(rows, "[{\"id\": 1}, {\"id\": 3}]");
  }

  @Test
  void noMatchingRowsIsAnEmptyArray() {
    assertJson(run("SELECT id FROM items WHERE id = {{ inputs.id }}", values("id", 99L)), "[]");
  }

  @Test
  void insertUpdateAndDeleteReportRowsAffected() {
    assertJson(
        run(
            "INSERT INTO items (id, name, price, active) VALUES ({{ inputs.id }}, {{ inputs.name"
                + " }}, 2.0, {{ inputs.active }})",
            values("id", 4L, "name", "date", "active", false)),
        "[{\"rows_affected\": 1}]");
    assertJson(
        run(
            "UPDATE items SET price = price + 1 WHERE active = {{ inputs.active }}",
            values("active", false)),
        "[{\"rows_affected\": 2}]");
    assertJson(
        run("DELETE FROM items WHERE id > {{ inputs.id }}", values("id", 1L)),
        "[{\"rows_affected\": 3}]");
  }

  @Test
  void aStructuredValueIsBoundAsItsJsonText() {
    tools.jackson.databind.node.ObjectNode document = JSON.createObjectNode();
    document.putArray("tags").add("a").add("b");
    run(
        "INSERT INTO items (id, name, price, active, note) VALUES (6, 'doc', 1, TRUE, {{"
            + " inputs.doc }})",
        values("doc", document));

    assertJson(
        run("SELECT note FROM items WHERE id = 6", Map.of()),
        "[{\"note\": " + JSON.writeValueAsString("{\"tags\":[\"a\",\"b\"]}") + "}]");
  }

  @Test
  void aPlaceholderInsideAStringLiteralIsBoundAsText() {
    JsonNode rows =
        run(
            "SELECT name FROM items WHERE name LIKE '%{{ inputs.q }}%' ORDER BY id",
            values("q", "an"));

    assertJson(rows, "[{\"name\": \"banana\"}]");
  }

  @Test
  void injectionAttemptsStayData() {
    assertJson(
        run("SELECT id FROM items WHERE name = {{ inputs.name }}", values("name", "' OR 1=1 --")),
        "[]");
    assertJson(
        run("SELECT id FROM items WHERE name LIKE '%{{ inputs.q }}%'", values("q", "' OR 1=1 --")),
        "[]");
    String evil = "x'); DROP TABLE items; --";
    run(
        "INSERT INTO items (id, name, price, active) VALUES (5, {{ inputs.name }}, 1, TRUE)",
        values("name", evil));

    assertJson(
        run("SELECT name FROM items WHERE id = 5", Map.of()),
        "[{\"name\": " + JSON.writeValueAsString(evil) + "}]");
    assertThat(run("SELECT id FROM items", Map.of())).hasSize(4);
  }

  @Test
  void aRejectedStatementFailsWithTheDatabasesOwnMessage() {
    StatementFailedException failure =
        catchThrowableOfType(
            StatementFailedException.class, () -> run("SELECT id FROM itemz", Map.of()));

    assertThat(failure.timedOut()).isFalse();
    assertThat(failure.getMessage()).contains("itemz").doesNotContain("jdbc:").doesNotContain("\n");
    assertThat(run("SELECT COUNT(*) AS n FROM items", Map.of()).get(0).get("n").asLong())
        .isEqualTo(3);
  }

  @Test
  void aValueTheDatabaseQuotesInItsMessageIsReplacedByItsPlaceholderThere() {
    StatementFailedException failure =
        catchThrowableOfType(
            StatementFailedException.class,
            () -> run(statementQuotingItsValue(), values("value", SECRET)));

    assertThat(failure.getMessage())
        .contains(messageQuotingThePlaceholder())
        .doesNotContain(SECRET)
        .doesNotContain("\n");
    for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
      assertThat(cause.toString()).doesNotContain(SECRET);
    }
  }

  @Test
  void theOptionalFilterIdiomWorksWithAndWithoutAValue() {
    String byNote =
        "SELECT id FROM items WHERE ({{ inputs.note }} IS NULL OR note = {{ inputs.note }}) ORDER"
            + " BY id";
    assertJson(run(byNote, values("note", null)), "[{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]");
    assertJson(run(byNote, values("note", "ripe")), "[{\"id\": 2}]");

    String byId =
        "SELECT id FROM items WHERE ({{ inputs.min }} IS NULL OR id >= {{ inputs.min }}) AND"
            + " ({{ inputs.since }} IS NULL OR created >= {{ inputs.since }}) ORDER BY id";
    assertJson(
        run(byId, values("min", null, "since", null)), "[{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]");
    assertJson(run(byId, values("min", 2L, "since", null)), "[{\"id\": 2}, {\"id\": 3}]");
    assertJson(
        run(byId, values("min", null, "since", at("2024-06-15T00:00:00Z"))), "[{\"id\": 3}]");
    assertJson(run(byNote, values("note", null)), "[{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]");
  }

  @Test
  void anInputWithoutAValueIsNamed() {
    assertThatThrownBy(() -> run("SELECT id FROM items WHERE id = {{ inputs.id }}", Map.of()))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("the statement uses input `id`, which has no value");
  }

  @Test
  void aStatementPastItsDeadlineIsCancelledAndTheConnectionStaysUsable() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));

    StatementFailedException failure =
        catchThrowableOfType(
            StatementFailedException.class,
            () ->
                connector.execute(
                    StatementFixture.sql(kind(), sleep(20)),
                    Map.of(),
                    Deadline.after(Duration.ofSeconds(1))));

    assertThat(failure.timedOut()).isTrue();
    assertThat(failure.getMessage())
        .isEqualTo("the statement ran longer than 1 s and was cancelled");
    assertJson(run("SELECT 2 AS two", Map.of()), "[{\"two\": 2}]");
  }

  @Test
  void checkOpensThePoolAndCloseIsIdempotent() {
    connector.check(Deadline.after(TIMEOUT));
    connector.close();
    connector.close();

    assertThatThrownBy(() -> run("SELECT 1", Map.of()))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessageEndingWith("adapter `db` is closed");
  }

  @Test
  void aWindowSkipsAndTakesRowsInOrder() {
    assertJson(run(numbers(20), window(5, 3)), "[{\"g\": 6}, {\"g\": 7}, {\"g\": 8}]");
    assertJson(run(numbers(20), window(18, 5)), "[{\"g\": 19}, {\"g\": 20}]");
    assertJson(run(numbers(20), window(25, 5)), "[]");
    assertThat(run(numbers(20), StatementOptions.ALL)).hasSize(20);
  }

  @Test
  void aResultPastTheCeilingIsRefusedAndTheNextCallIsServed() {
    ResultMemory small = new ResultMemory(4 * MIB, MIB);

    Throwable refused = catchThrowable(() -> within(small, numbers(300_000), StatementOptions.ALL));

    assertThat(refused)
        .isInstanceOf(ResultRefusedException.class)
        .hasMessageStartingWith("the result passed svc's ceiling of 1 MiB for one result");
    assertThat(small.reservedBytes()).isZero();
    assertJson(run("SELECT 4 AS four", Map.of()), "[{\"four\": 4}]");
  }

  // ---- read-only statements and describe ---------------------------------------------------

  static final StatementOptions READ_ONLY = new StatementOptions(0, Long.MAX_VALUE, true);

  @Test
  void aReadOnlyStatementReadsAsUsual() {
    assertJson(
        runReadOnly("SELECT name FROM items WHERE id = {{ inputs.id }}", values("id", 2L)),
        "[{\"name\": \"banana\"}]");
  }

  @Test
  void theDatabaseRefusesAWriteOfAReadOnlyStatementAndTheSameConnectionWritesAfter() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));
    String insert =
        "INSERT INTO items (id, name, price, active) VALUES ({{ inputs.id }}, 'fig', 1, TRUE)";

    StatementFailedException refused =
        catchThrowableOfType(
            StatementFailedException.class, () -> runReadOnly(insert, values("id", 7L)));

    assertThat(refused.getMessage()).containsIgnoringCase(readOnlyRefusal());
    assertThat(
            run("SELECT COUNT(*) AS n FROM items WHERE id = 7", Map.of()).get(0).get("n").asLong())
        .isZero();
    assertJson(run(insert, values("id", 7L)), "[{\"rows_affected\": 1}]");
    // and the other way: a plain write in between leaves the next read-only call read-only
    assertThatThrownBy(() -> runReadOnly(insert, values("id", 8L)))
        .isInstanceOf(StatementFailedException.class);
    assertThat(run("SELECT COUNT(*) AS n FROM items", Map.of()).get(0).get("n").asLong())
        .isEqualTo(4);
  }

  @Test
  void aReadOnlyStatementCannotDropATable() {
    assertThatThrownBy(() -> runReadOnly("DROP TABLE items", Map.of()))
        .isInstanceOf(StatementFailedException.class);
    assertThat(run("SELECT COUNT(*) AS n FROM items", Map.of()).get(0).get("n").asLong())
        .isEqualTo(3);
  }

  @Test
  void aFailedReadOnlyStatementLeavesTheConnectionWritable() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));

    assertThatThrownBy(() -> runReadOnly("SELECT id FROM itemz", Map.of()))
        .isInstanceOf(StatementFailedException.class);

    assertJson(run("DELETE FROM items WHERE id = 3", Map.of()), "[{\"rows_affected\": 1}]");
  }

  @Test
  void aReadOnlyStatementCancelledAtItsDeadlineLeavesTheConnectionWritable() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));

    StatementFailedException failure =
        catchThrowableOfType(
            StatementFailedException.class,
            () ->
                connector.execute(
                    StatementFixture.sql(kind(), sleep(20)),
                    Map.of(),
                    Deadline.after(Duration.ofSeconds(1)),
                    READ_ONLY));

    assertThat(failure.timedOut()).isTrue();
    assertJson(run("DELETE FROM items WHERE id = 3", Map.of()), "[{\"rows_affected\": 1}]");
  }

  @Test
  void concurrentReadOnlyAndPlainCallsOnASmallPoolNeverLeakTheModeEitherWay() throws Exception {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "2")));
    String insert =
        "INSERT INTO items (id, name, price, active) VALUES ({{ inputs.id }}, 'x', 1, TRUE)";
    java.util.concurrent.atomic.AtomicInteger wrongly =
        new java.util.concurrent.atomic.AtomicInteger();
    try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
      for (long id = 100; id < 140; id++) {
        long key = id;
        threads.submit(() -> {
          if (key % 2 == 0) {
            try {
              runReadOnly(insert, values("id", key));
              wrongly.incrementAndGet(); // a read-only call wrote
            } catch (StatementFailedException expected) {
              // refused by the database, as it must be
            }
          } else {
            try {
              run(insert, values("id", key));
            } catch (RuntimeException e) {
              wrongly.incrementAndGet(); // a plain call could not write
            }
          }
        });
      }
    }

    assertThat(wrongly).hasValue(0);
    assertThat(
            run("SELECT COUNT(*) AS n FROM items WHERE id >= 100", Map.of())
                .get(0)
                .get("n")
                .asLong())
        .isEqualTo(20);
  }

  /** What the database says when it refuses a write in read-only mode (case ignored). */
  abstract String readOnlyRefusal();

  @Test
  void describeNamesTheResultColumnsWithoutRunningTheStatement() {
    ResultShape shape =
        connector
            .describe(
                StatementFixture.sql(
                    kind(), "SELECT id, name AS label FROM items WHERE id = {{ inputs.id }}"),
                Map.of(),
                Deadline.after(TIMEOUT))
            .orElseThrow();

    assertThat(shape).isInstanceOf(ResultShape.Rows.class);
    assertThat(((ResultShape.Rows) shape).columns())
        .extracting(ResultShape.Column::label)
        .containsExactly("id", "label");
  }

  @Test
  void describeAfterCallsRanTheStatementStillNamesItsColumns() {
    // a reload under --watch describes statements the calls have prepared and run on the pool's
    // connections: sqlite-jdbc had dropped the columns of a statement it ran ("SQLite JDBC:
    // inconsistent internal state"), and the tool lost its output schema at every reload
    String source = "SELECT id, name AS label FROM items WHERE id = {{ inputs.id }}";
    for (int i = 0; i < 20; i++) {
      run(source, values("id", 1L));
    }

    ResultShape shape =
        connector
            .describe(StatementFixture.sql(kind(), source), Map.of(), Deadline.after(TIMEOUT))
            .orElseThrow();

    assertThat(((ResultShape.Rows) shape).columns())
        .extracting(ResultShape.Column::label)
        .containsExactly("id", "label");
    assertThat(run(source, values("id", 1L)).get(0).get("label").asString()).isNotEmpty();
  }

  @Test
  void describeTellsAStatementWithoutRowsAndRunsNothing() {
    ResultShape shape =
        connector
            .describe(
                StatementFixture.sql(kind(), "DELETE FROM items WHERE id > {{ inputs.id }}"),
                Map.of(),
                Deadline.after(TIMEOUT))
            .orElseThrow();

    assertThat(shape).isInstanceOf(ResultShape.RowsAffected.class);
    assertThat(run("SELECT COUNT(*) AS n FROM items", Map.of()).get(0).get("n").asLong())
        .isEqualTo(3);
  }

  @Test
  void describeTypesTheParametersFromSampleValuesOfTheInputsTypes() {
    ResultShape shape =
        connector
            .describe(
                StatementFixture.sql(kind(), "SELECT {{ inputs.a }} + {{ inputs.b }} AS total"),
                values("a", 0L, "b", 0L),
                Deadline.after(TIMEOUT))
            .orElseThrow();

    assertThat(((ResultShape.Rows) shape).columns())
        .extracting(ResultShape.Column::label)
        .containsExactly("total");
  }

  @Test
  void describingABrokenStatementFailsWithTheDatabasesMessage() {
    assertThatThrownBy(() ->
            connector.describe(
                StatementFixture.sql(kind(), "SELECT id FROM itemz"),
                Map.of(),
                Deadline.after(TIMEOUT)))
        .isInstanceOf(StatementFailedException.class)
        .hasMessageContaining("itemz");
  }

  JsonNode runReadOnly(String source, Map<String, Object> values) {
    return connector.execute(
        StatementFixture.sql(kind(), source), values, Deadline.after(TIMEOUT), READ_ONLY);
  }

  // ---- helpers ------------------------------------------------------------------------------

  static final long MIB = 1024 * 1024;

  static StatementOptions window(long skip, long take) {
    return new StatementOptions(skip, take, false);
  }

  JsonNode run(String source, StatementOptions options) {
    return connector.execute(
        StatementFixture.sql(kind(), source), Map.of(), Deadline.after(TIMEOUT), options);
  }

  /** Runs {@code source} as a tool call counted in {@code memory} does. */
  JsonNode within(ResultMemory memory, String source, StatementOptions options) {
    try (ResultMemory.Account call = memory.open()) {
      return ScopedValue.where(ResultMemory.CALL, call).call(() -> run(source, options));
    }
  }

  JsonNode run(String source, Map<String, Object> values) {
    return connector.execute(StatementFixture.sql(kind(), source), values, Deadline.after(TIMEOUT));
  }

  /** Name/value pairs; values may be null. */
  static Map<String, Object> values(Object... pairs) {
    Map<String, Object> values = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      values.put((String) pairs[i], pairs[i + 1]);
    }
    return values;
  }

  static OffsetDateTime at(String text) {
    return OffsetDateTime.parse(text);
  }

  /** Compares JSON texts; decimals in {@code expected} keep their scale (12.50 ≠ 12.5). */
  static void assertJson(JsonNode actual, String expected) {
    assertThat(actual.toString()).isEqualTo(JSON.readTree(expected).toString());
  }
}
