package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.svc.call.Deadline;
import dev.svc.cli.Instance;
import dev.svc.connector.Connector;
import dev.svc.connector.Connectors;
import dev.svc.json.Json;
import dev.svc.model.Statement;
import dev.svc.testing.InJvmMongo;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import dev.svc.testing.TestDatabase;
import dev.svc.testing.TestRedis;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Result caps, the truncation signal and continuation cursors over MCP, end to end on real
 * PostgreSQL, MariaDB, SQLite, Redis and the in-JVM MongoDB, and on a handler and a hybrid tool.
 * The project caps every tool at 5 rows; some tools set their own caps.
 */
class ResultCapsIT {
  @RegisterExtension static final TestDatabase postgres = TestDatabase.postgres();
  @RegisterExtension static final TestDatabase mariadb = TestDatabase.mysql();
  @RegisterExtension static final TestRedis redis = new TestRedis();
  @RegisterExtension static final InJvmMongo mongo = new InJvmMongo();

  @TempDir static Path dir;

  static Instance instance;
  static McpHttpClient client;

  private static final String PROJECT =
      """
      == .svc
      name: caps
      tools:
        max_rows: 5
      == app/adapters/pg.terse
      connector: postgres
      connection_string: "{{ env.PG_URL }}"
      == app/adapters/maria.terse
      connector: mysql
      connection_string: "{{ env.MYSQL_URL }}"
      == app/adapters/lite.terse
      connector: sqlite
      connection_string: "file:./lite.db"
      == app/adapters/kv.terse
      connector: redis
      connection_string: "{{ env.REDIS_URL }}"
      == app/adapters/docs.terse
      connector: mongodb
      connection_string: "{{ env.MONGO_URL }}"
      == app/tools/pg_series/config.terse
      description: The numbers 1 to count.
      use: pg
      statement: SELECT g AS n FROM generate_series(1, {{ inputs.count }}) g ORDER BY g
      inputs:
        count: {type: int}
      == app/tools/pg_series_8/config.terse
      description: The numbers 1 to count, eight at a time.
      use: pg
      statement: SELECT g AS n FROM generate_series(1, {{ inputs.count }}) g ORDER BY g
      max_rows: 8
      inputs:
        count: {type: int}
      == app/tools/pg_uncapped/config.terse
      description: The numbers 1 to count, all of them.
      use: pg
      statement: SELECT g AS n FROM generate_series(1, {{ inputs.count }}) g ORDER BY g
      max_rows: 0
      max_bytes: 0
      inputs:
        count: {type: int}
      == app/tools/pg_accents/config.terse
      description: Rows of accented text.
      use: pg
      statement: SELECT g AS n, repeat('é€', 40) AS t FROM generate_series(1, 10) g ORDER BY g
      max_bytes: 600
      == app/tools/pg_cached/config.terse
      description: Numbers of a table, cached.
      use: pg
      statement: SELECT n FROM numbers ORDER BY n
      cache: {enabled: true, ttl: 600}
      == app/tools/maria_numbers/config.terse
      description: Numbers of a table.
      use: maria
      statement: SELECT n FROM numbers ORDER BY n
      == app/tools/lite_numbers/config.terse
      description: Numbers of a table above a floor.
      use: lite
      statement: SELECT n FROM numbers WHERE n > {{ inputs.floor }} ORDER BY n
      inputs:
        floor: {type: int}
      == app/tools/kv_list/config.terse
      description: A Redis list.
      use: kv
      statement: LRANGE "PREFIXletters" 0 -1
      == app/tools/docs_find/config.terse
      description: Documents in order.
      use: docs
      statement: '{"database": "caps", "command": {"find": "numbers", "sort": {"n": 1}, "projection": {"_id": 0}}}'
      == app/tools/handled/config.terse
      description: A handler returning count numbers.
      inputs:
        count: {type: int}
      == app/tools/handled/handler.ts
      export default ({ inputs }) => Array.from({ length: inputs.count }, (_, i) => i + 1);
      == app/tools/big_object/config.terse
      description: A handler returning one big object.
      max_bytes: 100
      == app/tools/big_object/handler.ts
      export default () => ({ text: "x".repeat(500) });
      == app/tools/hybrid/config.terse
      description: A statement with an output transform that doubles each number.
      use: pg
      statement: SELECT g AS n FROM generate_series(1, {{ inputs.count }}) g ORDER BY g
      mappers:
        output: double.ts
      inputs:
        count: {type: int}
      == app/tools/hybrid/double.ts
      export default ({ results }) => results.map((r) => r.n * 2);
      """;

  @BeforeAll
  static void start() throws SQLException, java.io.IOException {
    sql(postgres, "CREATE TABLE numbers (n INT PRIMARY KEY)");
    sql(postgres, "INSERT INTO numbers SELECT g FROM generate_series(1, 7) g");
    sql(mariadb, "CREATE TABLE numbers (n INT PRIMARY KEY)");
    sql(mariadb, "INSERT INTO numbers VALUES (1), (2), (3), (4), (5), (6), (7)");
    Path project = dir.resolve("project");
    java.nio.file.Files.createDirectories(project.resolve("app"));
    try (Connection lite =
            DriverManager.getConnection("jdbc:sqlite:" + project.resolve("lite.db"));
        java.sql.Statement seed = lite.createStatement()) {
      seed.executeUpdate("CREATE TABLE numbers (n INTEGER PRIMARY KEY)");
      seed.executeUpdate(
          "INSERT INTO numbers VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12)");
    }
    redis.run(0, "DEL", redis.prefix() + "letters");
    redis.run(0, "RPUSH", redis.prefix() + "letters", "a", "b", "c", "d", "e", "f", "g");
    try (MongoClient mongoClient = MongoClients.create(mongo.connectionString())) {
      List<Document> documents = new ArrayList<>();
      for (int n = 7; n >= 1; n--) {
        documents.add(new Document("n", n));
      }
      mongoClient.getDatabase("caps").getCollection("numbers").insertMany(documents);
    }
    instance =
        RunningProject.start(
            project,
            PROJECT.replace("PREFIX", redis.prefix()),
            Map.of(
                "PG_URL", postgres.connectionString(),
                "MYSQL_URL", mariadb.connectionString(),
                "REDIS_URL", redis.connectionString(0),
                "MONGO_URL", mongo.connectionString()));
    client = new McpHttpClient(instance.baseUrl());
    client.initialize();
  }

  @AfterAll
  static void stop() {
    if (instance != null) {
      instance.close();
    }
  }

  /** Runs a statement on a test database through a connector of its own. */
  private static void sql(TestDatabase database, String text) {
    try (Connector connector = Connectors.open(database.adapter(Map.of()))) {
      connector.execute(
          new Statement.Sql(text, text, List.of()),
          Map.of(),
          Deadline.after(Duration.ofSeconds(30)));
    }
  }

  private static JsonNode result(String tool, String arguments) {
    return client.call(tool, arguments).path("result");
  }

  /** The structured content of a successful call. */
  private static JsonNode structured(String tool, String arguments) {
    JsonNode result = result(tool, arguments);
    assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
    JsonNode structured = result.path("structuredContent");
    JsonNode text = Json.MAPPER.readTree(result.path("content").get(0).path("text").asString());
    if (structured.has("truncated")) {
      assertThat(text).as("the text of a cut result: the whole envelope").isEqualTo(structured);
    } else {
      assertThat(text)
          .as("the text of an uncut result: the list alone")
          .isEqualTo(structured.has("rows") ? structured.path("rows") : structured.path("result"));
    }
    return structured;
  }

  private static String text(JsonNode result) {
    return result.path("content").get(0).path("text").asString();
  }

  private static List<Integer> numbers(JsonNode rows, String field) {
    List<Integer> numbers = new ArrayList<>();
    rows.forEach(row -> numbers.add(field.isEmpty() ? row.asInt() : row.path(field).asInt()));
    return numbers;
  }

  @Test
  void exactlyTheCapIsNotFlaggedAndOneRowMoreIsCutAndFlagged() {
    JsonNode five = result("pg_series", "{\"count\": 5}");
    assertThat(five.path("structuredContent").toString())
        .isEqualTo("{\"rows\":[{\"n\":1},{\"n\":2},{\"n\":3},{\"n\":4},{\"n\":5}]}");
    assertThat(text(five)).isEqualTo("[{\"n\":1},{\"n\":2},{\"n\":3},{\"n\":4},{\"n\":5}]");

    JsonNode six = structured("pg_series", "{\"count\": 6}");
    assertThat(numbers(six.path("rows"), "n")).containsExactly(1, 2, 3, 4, 5);
    assertThat(six.path("truncated").asBoolean()).isTrue();
    assertThat(six.path("returned_rows").asInt()).isEqualTo(5);
    assertThat(six.path("limit").asString()).isEqualTo("max_rows");
    assertThat(six.path("next_cursor").asString()).matches("[A-Za-z0-9_-]{40,}");
  }

  @Test
  void aCursorReadsThePostgresResultPageByPageToTheEnd() {
    JsonNode first = structured("pg_series", "{\"count\": 13}");
    String cursor = first.path("next_cursor").asString();
    JsonNode second = structured("pg_series", "{\"count\": 13, \"cursor\": \"" + cursor + "\"}");
    assertThat(numbers(second.path("rows"), "n")).containsExactly(6, 7, 8, 9, 10);
    assertThat(second.path("truncated").asBoolean()).isTrue();
    JsonNode third =
        structured(
            "pg_series",
            "{\"count\": 13, \"cursor\": \"" + second.path("next_cursor").asString() + "\"}");
    assertThat(third.toString()).isEqualTo("{\"rows\":[{\"n\":11},{\"n\":12},{\"n\":13}]}");
  }

  @Test
  void aCursorReadsTheSqliteResultPageByPageToTheEnd() {
    JsonNode first = structured("lite_numbers", "{\"floor\": 0}");
    assertThat(numbers(first.path("rows"), "n")).containsExactly(1, 2, 3, 4, 5);
    JsonNode second =
        structured(
            "lite_numbers",
            "{\"floor\": \"0\", \"cursor\": \"" + first.path("next_cursor").asString() + "\"}");
    assertThat(numbers(second.path("rows"), "n")).containsExactly(6, 7, 8, 9, 10);
    JsonNode third =
        structured(
            "lite_numbers",
            "{\"floor\": 0, \"cursor\": \"" + second.path("next_cursor").asString() + "\"}");
    assertThat(third.toString()).isEqualTo("{\"rows\":[{\"n\":11},{\"n\":12}]}");
  }

  @Test
  void mariadbAndMongoResultsAreCutAndContinuedToo() {
    JsonNode maria = structured("maria_numbers", "{}");
    assertThat(numbers(maria.path("rows"), "n")).containsExactly(1, 2, 3, 4, 5);
    JsonNode mariaNext =
        structured(
            "maria_numbers", "{\"cursor\": \"" + maria.path("next_cursor").asString() + "\"}");
    assertThat(mariaNext.toString()).isEqualTo("{\"rows\":[{\"n\":6},{\"n\":7}]}");

    JsonNode docs = structured("docs_find", "{}");
    assertThat(numbers(docs.path("rows"), "n")).containsExactly(1, 2, 3, 4, 5);
    assertThat(docs.path("limit").asString()).isEqualTo("max_rows");
    JsonNode docsNext =
        structured("docs_find", "{\"cursor\": \"" + docs.path("next_cursor").asString() + "\"}");
    assertThat(docsNext.toString()).isEqualTo("{\"rows\":[{\"n\":6},{\"n\":7}]}");
  }

  @Test
  void redisHandlerAndHybridResultsAreCutWithoutACursor() {
    JsonNode letters = structured("kv_list", "{}");
    assertThat(letters.toString())
        .isEqualTo(
            "{\"rows\":[\"a\",\"b\",\"c\",\"d\",\"e\"],\"truncated\":true,\"returned_rows\":5,"
                + "\"limit\":\"max_rows\"}");

    JsonNode handled = structured("handled", "{\"count\": 7}");
    assertThat(handled.toString())
        .isEqualTo(
            "{\"result\":[1,2,3,4,5],\"truncated\":true,\"returned_rows\":5,\"limit\":\"max_rows\"}");
    assertThat(result("handled", "{\"count\": 5}").path("structuredContent").toString())
        .isEqualTo("{\"result\":[1,2,3,4,5]}");

    // the transform sees the probe window (6 rows) and its list is capped after it
    JsonNode hybrid = structured("hybrid", "{\"count\": 100}");
    assertThat(hybrid.toString())
        .isEqualTo(
            "{\"result\":[2,4,6,8,10],\"truncated\":true,\"returned_rows\":5,\"limit\":\"max_rows\"}");
  }

  @Test
  void aToolsOwnCapsOverrideTheGlobalOnesAndZeroDisablesThem() {
    JsonNode eight = structured("pg_series_8", "{\"count\": 20}");
    assertThat(eight.path("returned_rows").asInt()).isEqualTo(8);
    assertThat(eight.path("rows").size()).isEqualTo(8);

    JsonNode all = structured("pg_uncapped", "{\"count\": 2000}");
    assertThat(all.has("truncated")).isFalse();
    assertThat(all.path("rows").size()).isEqualTo(2000);
  }

  @Test
  void theByteCapKeepsWholeRowsOfMultibyteText() {
    JsonNode accents = structured("pg_accents", "{}");
    assertThat(accents.path("limit").asString()).isEqualTo("max_bytes");
    // a row is {"n":1,"t":"é€…"}: 12 + 40 × 5 + 2 = 214 bytes; two fit in 600 (431), three do not
    assertThat(accents.path("returned_rows").asInt()).isEqualTo(2);
    assertThat(numbers(accents.path("rows"), "n")).containsExactly(1, 2);
    accents
        .path("rows")
        .forEach(row -> assertThat(row.path("t").asString()).isEqualTo("é€".repeat(40)));
    assertThat(
            Json.MAPPER
                .writeValueAsString(accents.path("rows"))
                .getBytes(StandardCharsets.UTF_8)
                .length)
        .isEqualTo(431);

    JsonNode next =
        structured(
            "pg_accents", "{\"cursor\": \"" + accents.path("next_cursor").asString() + "\"}");
    assertThat(numbers(next.path("rows"), "n")).containsExactly(3, 4);
  }

  @Test
  void aNonListResultOverTheByteCapIsAToolErrorSayingSo() {
    JsonNode big = result("big_object", "{}");
    assertThat(big.path("isError").asBoolean()).isTrue();
    assertThat(text(big))
        .isEqualTo(
            "the result is 511 bytes of JSON, over the tool's max_bytes of 100; ask for less, or"
                + " raise max_bytes (in the tool's config.terse, or under tools in .svc; 0 removes"
                + " the cap)");
  }

  @Test
  void aCursorOfAnotherToolOrOtherInputsOrTamperedWithIsAToolError() {
    String cursor = structured("pg_series", "{\"count\": 13}").path("next_cursor").asString();
    JsonNode otherInputs = result("pg_series", "{\"count\": 14, \"cursor\": \"" + cursor + "\"}");
    assertThat(otherInputs.path("isError").asBoolean()).isTrue();
    assertThat(text(otherInputs)).startsWith("invalid cursor: it was made for other inputs");

    JsonNode otherTool = result("pg_series_8", "{\"count\": 13, \"cursor\": \"" + cursor + "\"}");
    assertThat(text(otherTool)).startsWith("invalid cursor: it belongs to tool `pg_series`");

    char last = cursor.charAt(cursor.length() - 2);
    String tampered =
        cursor.substring(0, cursor.length() - 2)
            + (last == 'A' ? 'B' : 'A')
            + cursor.substring(cursor.length() - 1);
    JsonNode altered = result("pg_series", "{\"count\": 13, \"cursor\": \"" + tampered + "\"}");
    assertThat(altered.path("isError").asBoolean()).isTrue();
    assertThat(text(altered)).startsWith("invalid cursor: it was altered");

    JsonNode notACursorTool = result("handled", "{\"count\": 1, \"cursor\": \"" + cursor + "\"}");
    assertThat(text(notACursorTool)).startsWith("invalid arguments: unknown input `cursor`");
  }

  @Test
  void toolsThatOfferCursorsListTheCursorInput() {
    JsonNode tools = client.request("tools/list", "{}").path("result").path("tools");
    List<String> withCursor = new ArrayList<>();
    tools.forEach(tool -> {
      if (tool.path("inputSchema").path("properties").has("cursor")) {
        withCursor.add(tool.path("name").asString());
      }
    });
    assertThat(withCursor)
        .containsExactlyInAnyOrder(
            "pg_series",
            "pg_series_8",
            "pg_accents",
            "pg_cached",
            "maria_numbers",
            "lite_numbers",
            "docs_find");
  }

  @Test
  void theCacheKeepsEachPageWithItsSignalAndGivesAFreshCursor() {
    JsonNode first = structured("pg_cached", "{}");
    assertThat(numbers(first.path("rows"), "n")).containsExactly(1, 2, 3, 4, 5);
    sql(postgres, "INSERT INTO numbers VALUES (0)");
    try {
      JsonNode again = structured("pg_cached", "{}");
      assertThat(again.path("rows")).as("served from the cache").isEqualTo(first.path("rows"));
      assertThat(again.path("truncated").asBoolean()).isTrue();
      JsonNode second =
          structured("pg_cached", "{\"cursor\": \"" + again.path("next_cursor").asString() + "\"}");
      assertThat(numbers(second.path("rows"), "n"))
          .as("the second page is not cached yet: read now, after the insert")
          .containsExactly(5, 6, 7);
    } finally {
      sql(postgres, "DELETE FROM numbers WHERE n = 0");
    }
  }
}
