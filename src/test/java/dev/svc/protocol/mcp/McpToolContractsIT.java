package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.svc.call.Deadline;
import dev.svc.cli.Instance;
import dev.svc.compile.StatementFixture;
import dev.svc.connector.Connector;
import dev.svc.connector.Connectors;
import dev.svc.model.ConnectorKind;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import dev.svc.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * What `tools/list` promises about each tool (annotations, output schema) and that calls keep the
 * promise, on real PostgreSQL, MariaDB and SQLite: every column type of the connector contract
 * suite, a read-only tool the database itself refuses to let write, and a handler's declared
 * schema.
 */
class McpToolContractsIT {
  @RegisterExtension static final TestDatabase POSTGRES = TestDatabase.postgres();
  @RegisterExtension static final TestDatabase MARIADB = TestDatabase.mysql();

  private static final SchemaRegistry SCHEMAS =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  @TempDir Path dir;

  /** Tools on adapter `ADAPTER`: every column kind, an insert, a read-only insert, a count. */
  private static final String TOOLS =
      """
      == app/adapters/ADAPTER.terse
      connector: CONNECTOR
      connection_string: "{{ env.URL_ADAPTER }}"
      options: {max_connections: "1"}
      == app/tools/kinds_ADAPTER/config.terse
      description: Every kind of column.
      use: ADAPTER
      statement: SELECT * FROM kinds ORDER BY ORDER_KEY
      == app/tools/add_ADAPTER/config.terse
      description: Adds a note.
      use: ADAPTER
      statement: INSERT INTO notes (body) VALUES ({{ inputs.body }})
      inputs: {body: {type: string}}
      == app/tools/sneaky_ADAPTER/config.terse
      description: Tries to add a note from a read-only tool.
      use: ADAPTER
      statement: INSERT INTO notes (body) VALUES ({{ inputs.body }})
      read_only: true
      inputs: {body: {type: string}}
      == app/tools/count_ADAPTER/config.terse
      description: Counts notes.
      use: ADAPTER
      statement: SELECT COUNT(*) AS n FROM notes
      read_only: true
      """;

  private static final String HANDLERS =
      """
      == .svc
      name: contracts
      == app/tools/greet/config.terse
      description: Greets.
      annotations: {read_only_hint: true, title: Greeter}
      output_schema:
        type: object
        properties:
          greeting: {type: string}
        required: [greeting]
      == app/tools/greet/handler.ts
      export default () => ({ greeting: "hello" });
      == app/tools/shaped/config.terse
      description: Every kind, reshaped by a transform.
      use: lite
      statement: SELECT * FROM kinds
      == app/tools/shaped/output.ts
      export default ({ results }: { results: unknown[] }) => ({ count: results.length });
      """;

  @Test
  void toolsListShowsAnnotationsAndOutputSchemasAndCallsKeepThem() throws Exception {
    seedPostgres();
    seedMariadb();
    Path lite = dir.resolve("lite.db");
    seedSqlite(lite);
    String project =
        HANDLERS
            + tools("pg", "postgres", "i4 NULLS LAST")
            + tools("maria", "mysql", "i IS NULL")
            + tools("lite", "sqlite", "i IS NULL");
    try (Instance instance =
        RunningProject.start(
            dir.resolve("project"),
            project,
            Map.of(
                "URL_pg", POSTGRES.connectionString(),
                "URL_maria", MARIADB.connectionString(),
                "URL_lite", lite.toString()))) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      Map<String, JsonNode> listed = new java.util.HashMap<>();
      for (JsonNode tool : client.request("tools/list", "{}").path("result").path("tools")) {
        listed.put(tool.path("name").asString(), tool);
      }

      assertThat(listed.get("kinds_pg").path("outputSchema").path("properties").path("rows"))
          .hasToString(
              """
              {"type":"array","items":{"type":"object","properties":{\
              "i4":{"type":["integer","null"]},"i8":{"type":["integer"]},\
              "n":{"type":["number","string","null"]},"f8":{"type":["number","string","null"]},\
              "b":{"type":["boolean","null"]},"t":{"type":["string","null"]},\
              "ts":{"type":["string","null"]},"d":{"type":["string","null"]},\
              "by":{"type":["string","null"]},"j":{},"jb":{}},\
              "required":["i4","i8","n","f8","b","t","ts","d","by","j","jb"]}}\
              """);
      JsonNode maria =
          listed.get("kinds_maria").path("outputSchema").path("properties").path("rows");
      assertThat(maria.path("items").path("properties").path("bi"))
          .hasToString("{\"type\":[\"integer\"]}");
      assertThat(maria.path("items").path("properties").path("de"))
          .hasToString("{\"type\":[\"number\",\"null\"]}");
      assertThat(maria.path("items").path("properties").path("flag"))
          .hasToString("{\"type\":[\"boolean\",\"null\"]}");
      assertThat(
              listed
                  .get("kinds_lite")
                  .path("outputSchema")
                  .path("properties")
                  .path("rows")
                  .path("items"))
          .hasToString(
              "{\"type\":\"object\",\"properties\":{\"i\":{},\"r\":{},\"t\":{},\"b\":{},\"n\":{}},"
                  + "\"required\":[\"i\",\"r\",\"t\",\"b\",\"n\"]}");
      for (String adapter : List.of("pg", "maria", "lite")) {
        JsonNode outputSchema = listed.get("kinds_" + adapter).path("outputSchema");
        assertThat(outputSchema.path("required")).hasToString("[\"rows\"]");
        assertThat(outputSchema.path("properties").path("truncated"))
            .hasToString("{\"type\":\"boolean\"}");
        assertThat(
                listed.get("add_" + adapter).path("outputSchema").path("properties").path("rows"))
            .hasToString(
                "{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":"
                    + "{\"rows_affected\":{\"type\":\"integer\"}},\"required\":[\"rows_affected\"]}}");
        assertThat(listed.get("kinds_" + adapter).path("annotations"))
            .hasToString(
                "{\"readOnlyHint\":true,\"destructiveHint\":false,\"idempotentHint\":true,\"openWorldHint\":false}");
        assertThat(listed.get("add_" + adapter).path("annotations"))
            .hasToString(
                "{\"readOnlyHint\":false,\"destructiveHint\":false,\"openWorldHint\":false}");

        // every call's structuredContent conforms to the schema tools/list promised
        for (String tool : List.of("kinds_", "add_", "count_")) {
          JsonNode result =
              client.call(tool + adapter, tool.equals("add_") ? "{\"body\": \"hi\"}" : "{}");
          assertConforms(listed.get(tool + adapter), result.path("result"));
        }

        // the database refuses the read-only tool's write; the row is not there; the same pooled
        // connection (max_connections: 1) writes for the next plain call
        JsonNode refused =
            client.call("sneaky_" + adapter, "{\"body\": \"sneaky\"}").path("result");
        assertThat(refused.path("isError").asBoolean()).as(adapter).isTrue();
        assertThat(refused.path("content").get(0).path("text").asString())
            .as(adapter)
            .containsIgnoringCase(
                adapter.equals("pg")
                    ? "read-only transaction"
                    : adapter.equals("maria") ? "READ ONLY transaction" : "readonly database");
        assertThat(rows(client.call("count_" + adapter, "{}")).get(0).path("n").asLong())
            .as(adapter)
            .isEqualTo(1);
        client.call("add_" + adapter, "{\"body\": \"again\"}");
        assertThat(rows(client.call("count_" + adapter, "{}")).get(0).path("n").asLong())
            .as(adapter)
            .isEqualTo(2);
      }

      assertThat(listed.get("greet").path("outputSchema"))
          .hasToString(
              "{\"type\":\"object\",\"properties\":{\"greeting\":{\"type\":\"string\"}},\"required\":[\"greeting\"]}");
      assertThat(listed.get("greet").path("annotations"))
          .hasToString("{\"title\":\"Greeter\",\"readOnlyHint\":true}");
      assertConforms(listed.get("greet"), client.call("greet", "{}").path("result"));
      assertThat(listed.get("shaped").has("outputSchema")).isFalse();
      assertThat(listed.get("search").path("annotations"))
          .hasToString(
              "{\"readOnlyHint\":true,\"destructiveHint\":false,\"idempotentHint\":true,\"openWorldHint\":false}");
    }
  }

  private static String tools(String adapter, String connector, String orderKey) {
    return TOOLS
        .replace("CONNECTOR", connector)
        .replace("ORDER_KEY", orderKey)
        .replace("ADAPTER", adapter);
  }

  /** The rows of a statement tool's result, whichever key holds them. */
  private static JsonNode rows(JsonNode response) {
    JsonNode structured = response.path("result").path("structuredContent");
    return structured.has("rows") ? structured.path("rows") : structured.path("result");
  }

  private static void assertConforms(JsonNode tool, JsonNode result) {
    assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
    Schema schema = SCHEMAS.getSchema(tool.path("outputSchema"));
    List<String> errors = new ArrayList<>();
    schema.validate(result.path("structuredContent")).forEach(e -> errors.add(e.toString()));
    assertThat(errors)
        .as("%s: %s", tool.path("name").asString(), result.path("structuredContent"))
        .isEmpty();
  }

  private static void seedPostgres() {
    run(
        POSTGRES,
        "CREATE TABLE kinds (i4 int4, i8 int8 NOT NULL, n numeric(10,2), f8 float8, b bool, t text,"
            + " ts timestamptz, d date, by bytea, j json, jb jsonb)",
        "INSERT INTO kinds VALUES (42, 9007199254740993, 12.50, 0.1, true, 'héllo',"
            + " '2024-05-01 10:00:00+02', '2024-05-01', '\\x00ff10', '{\"a\": [1, 2]}',"
            + " '{\"b\": {\"c\": null}}'), (NULL, 0, 'NaN', 'Infinity', NULL, NULL, NULL, NULL,"
            + " NULL, NULL, NULL)",
        "CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)");
  }

  private static void seedMariadb() {
    run(
        MARIADB,
        "CREATE TABLE kinds (i INT, bi BIGINT NOT NULL, de DECIMAL(10,2), dbl DOUBLE, flag"
            + " TINYINT(1), b BOOLEAN, s VARCHAR(50), dt DATETIME, d DATE, bl BLOB, j JSON)",
        "INSERT INTO kinds VALUES (42, 9007199254740993, 12.50, 0.1, 1, FALSE, 'héllo',"
            + " '2024-05-01 10:00:00', '2024-05-01', x'00ff10', '{\"a\": [1, 2]}'), (NULL, 0,"
            + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
        "CREATE TABLE notes (id INT AUTO_INCREMENT PRIMARY KEY, body TEXT NOT NULL)");
  }

  private static void seedSqlite(Path file) throws Exception {
    try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement seed = sqlite.createStatement()) {
      seed.executeUpdate("CREATE TABLE kinds (i INTEGER, r REAL, t TEXT, b BLOB, n)");
      seed.executeUpdate(
          "INSERT INTO kinds VALUES (9007199254740993, 1.5, 'héllo', x'00ff10', NULL),"
              + " (NULL, NULL, NULL, NULL, 'x')");
      seed.executeUpdate("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    }
  }

  private static void run(TestDatabase database, String... statements) {
    try (Connector connector = Connectors.open(database.adapter(Map.of()))) {
      for (String sql : statements) {
        connector.execute(
            StatementFixture.sql(
                database == POSTGRES ? ConnectorKind.POSTGRES : ConnectorKind.MYSQL, sql),
            Map.of(),
            Deadline.after(Duration.ofSeconds(30)));
      }
    }
  }
}
