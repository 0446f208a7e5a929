package dev.svc.cli;

import static dev.svc.cli.CliRun.svc;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.ProjectFixture;
import dev.svc.testing.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code svc test} as users run it: on the bundled examples, and on a project with passing and
 * failing cases against real SQLite and PostgreSQL, asserting the report, the JUnit XML and the
 * exit code.
 */
class TestCommandIT {
  @RegisterExtension static final TestDatabase POSTGRES = TestDatabase.postgres();
  @RegisterExtension static final TestDatabase MYSQL = TestDatabase.mysql();

  @TempDir Path work;

  static final Path REPOSITORY = Path.of("").toAbsolutePath();

  /** The project without its adapter: two tools, fixtures, cases that pass and cases that fail. */
  static final String PROJECT =
      """
      == .svc
      name: pantry
      == db/items.sql
      -- the fixture of every suite; idempotent, for a database that outlives the run
      DROP TABLE IF EXISTS items;
      CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER NOT NULL);
      INSERT INTO items (id, name, qty) VALUES (1, 'apple', 3), (2, 'apricot', 0), (3, 'banana', 7);
      == app/tools/find_item/config.terse
      description: Items whose name starts with a prefix.
      use: pantry
      statement: SELECT id, name, qty FROM items WHERE name LIKE {{ inputs.prefix }} || '%' ORDER BY id
      inputs:
        prefix: {type: string, description: The start of the name.}
      == app/tools/find_item/tests.terse
      fixtures: [../../../db/items.sql]
      cases:
        finds apples by prefix:
          inputs: {prefix: ap}
          expect:
            result:
              - {id: 1, name: apple, qty: 3}
              - {id: 2, name: apricot, qty: 0}
        counts bananas:
          inputs: {prefix: b}
          expect:
            row_count: 1
            json_path: {"$[0].qty": 7}
        wrong on purpose:
          inputs: {prefix: b}
          expect:
            json_path: {"$[0].qty": 8}
            rows_contain: [{name: cherry}]
        expects an error that does not come:
          inputs: {prefix: a}
          expect:
            error: boom
      == app/tools/list_items/config.terse
      description: Every item, two at most.
      use: pantry
      statement: SELECT id, name FROM items ORDER BY id
      max_rows: 2
      == app/tools/list_items/tests.terse
      fixtures: [../../../db/items.sql]
      cases:
        is cut at two rows:
          expect:
            row_count: 2
            truncated: true
        refuses an input it does not have:
          inputs: {name: x}
          expect:
            error: "name"
      """;

  static final String REPORT =
      """
      FAIL  tool find_item  app/tools/find_item/tests.terse  (2 of 4 cases failed)
        FAIL  wrong on purpose  app/tools/find_item/tests.terse:14:3
          rows_contain: no row matches {"name":"cherry"}; the closest row, in its fields:  (- expected, + actual)
              {
            -   "name" : "cherry"
            +   "name" : "banana"
              }
          json_path $[0].qty: expected 8, got 7
        FAIL  expects an error that does not come  app/tools/find_item/tests.terse:19:3
          error: expected an error matching /boom/, the call succeeded
            [ {
              "id" : 1,
              "name" : "apple",
              "qty" : 3
            }, {
              "id" : 2,
              "name" : "apricot",
              "qty" : 0
            } ]
      PASS  tool list_items  app/tools/list_items/tests.terse  (2 cases)
      2 suites, 6 cases: 4 passed, 2 failed, 0 errors
      """;

  /**
   * A report that cannot be written said so, but not why (a folder, a missing parent, a full disk).
   */
  @Test
  void aReportThatCannotBeWrittenSaysWhy() {
    assertThat(svc(work, "init").exitCode()).isZero();

    CliRun run = svc(work, "test", "--output", "no/such/folder/report.txt");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.err())
        .contains(
            "error: cannot write the report to "
                + work.resolve("no/such/folder/report.txt")
                + ": not found: "
                + work.resolve("no/such/folder/report.txt")
                + " (or a folder on its way)");
  }

  @Test
  void theQuickstartsTestsPassWithoutTouchingItsDatabaseFile() throws IOException {
    // the file is there when the quickstart was started from this checkout, else not
    Path database = REPOSITORY.resolve("examples/quickstart/shop.db");
    String before =
        Files.exists(database)
            ? Files.getLastModifiedTime(database) + " " + Files.size(database)
            : "none";

    CliRun run = svc(REPOSITORY, "test", "examples/quickstart");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .isEqualTo(
            """
            PASS  tool get_product  app/tools/get_product/tests.terse  (3 cases)
            PASS  tool list_products  app/tools/list_products/tests.terse  (2 cases)
            PASS  tool low_stock  app/tools/low_stock/tests.terse  (1 case)
            PASS  tool place_order  app/tools/place_order/tests.terse  (3 cases)
            PASS  tool search_products  app/tools/search_products/tests.terse  (1 case)
            PASS  prompt recommend  app/prompts/recommend.tests.terse  (3 cases)
            PASS  resource shop://guide  app/resources/catalog-guide/tests.terse  (1 case)
            7 suites, 14 cases: 14 passed, 0 failed, 0 errors
            """);
    String after =
        Files.exists(database)
            ? Files.getLastModifiedTime(database) + " " + Files.size(database)
            : "none";
    assertThat(after).as("examples/quickstart/shop.db").isEqualTo(before);
  }

  @Test
  void aProjectFromSvcInitHasTestsThatPass() {
    assertThat(svc(work, "init").exitCode()).isZero();

    CliRun run = svc(work, "test");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .isEqualTo(
            """
            PASS  tool hello-world  app/tools/hello-world/tests.terse  (2 cases)
            1 suite, 2 cases: 2 passed, 0 failed, 0 errors
            """);
  }

  @Test
  void theConformanceExamplesTestsPass() {
    CliRun run = svc(REPOSITORY, "test", "examples/conformance");

    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(run.out())
        .contains("PASS  template test://template/{id}/data  app/resources/template/tests.terse")
        .endsWith("5 suites, 7 cases: 7 passed, 0 failed, 0 errors\n");
  }

  @Test
  void onSqliteFailingCasesAreReportedWithDiffsAndExitOne() {
    ProjectFixture.write(work, PROJECT + SQLITE);

    CliRun run = svc(work, "test");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEqualTo(REPORT);
    assertThat(work.resolve("pantry.db")).doesNotExist();
  }

  @Test
  void onPostgresTheSameProjectGivesTheSameReport() {
    ProjectFixture.write(work, PROJECT + postgres());

    CliRun run = svc(work, "test");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
    assertThat(run.out()).isEqualTo(REPORT);
  }

  @Test
  void aFreshSchemaHoldsASuitesTablesAndIsDroppedAfterIt() throws Exception {
    ProjectFixture.write(
        work,
        PROJECT
                .replace("fixtures: [", "fresh_schema: true\nfixtures: [")
                .replace(" items", " fresh_items")
            + postgres());

    CliRun run = svc(work, "test");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
    assertThat(run.out())
        .isEqualTo(
            REPORT
                .replace("tests.terse:14:3", "tests.terse:15:3")
                .replace("tests.terse:19:3", "tests.terse:20:3"));
    try (var connection =
            java.sql.DriverManager.getConnection(
                "jdbc:postgresql://"
                    + POSTGRES.host()
                    + ":"
                    + POSTGRES.port()
                    + "/"
                    + POSTGRES.name(),
                POSTGRES.user(),
                "");
        var rows =
            connection
                .createStatement()
                .executeQuery(
                    "SELECT (SELECT count(*) FROM information_schema.schemata"
                        + " WHERE schema_name LIKE 'svc_test_%')"
                        + " + (SELECT count(*) FROM information_schema.tables"
                        + " WHERE table_name = 'fresh_items')")) {
      rows.next();
      assertThat(rows.getInt(1)).isZero();
    }
  }

  @Test
  void onMysqlTheSameProjectGivesTheSameReport() {
    ProjectFixture.write(
        work,
        PROJECT.replace("{{ inputs.prefix }} || '%'", "CONCAT({{ inputs.prefix }}, '%')")
            + """
            == app/adapters/pantry.terse
            connector: mysql
            connection_string: "%s"
            """
                .formatted(MYSQL.connectionString()));

    CliRun run = svc(work, "test");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
    assertThat(run.out()).isEqualTo(REPORT);
  }

  @Test
  void withALogFileItsPathIsPrintedOnStderrAndStdoutStaysTheReport() throws IOException {
    ProjectFixture.write(work, PROJECT + SQLITE);

    CliRun run = svc(work, "test", "--format", "junit", "--filter", "FIND_ITEM/", "--log-file");

    assertThat(run.out()).startsWith("<?xml").doesNotContain("logging to");
    Matcher path = Pattern.compile("svc: logging to (\\S+\\.log)").matcher(run.err());
    assertThat(path.find()).as(run.err()).isTrue();
    assertThat(Path.of(path.group(1))).exists();
    Files.deleteIfExists(Path.of(path.group(1)));
  }

  @Test
  void junitXmlGoesToStdoutAndTheReadableReportToStderr() {
    ProjectFixture.write(work, PROJECT + SQLITE);

    CliRun run = svc(work, "test", "--format", "junit", "--filter", "FIND_ITEM/");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("FAIL  tool find_item").doesNotContain("list_items");
    assertThat(run.out().replaceAll("time=\"[0-9.]+\"", "time=\"T\""))
        .isEqualTo(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="pantry" tests="4" failures="2" errors="0" time="T">
              <testsuite name="tool find_item" file="app/tools/find_item/tests.terse" tests="4" \
            failures="2" errors="0" skipped="0" time="T">
                <testcase name="finds apples by prefix" classname="tool find_item" \
            file="app/tools/find_item/tests.terse" line="3" time="T"/>
                <testcase name="counts bananas" classname="tool find_item" \
            file="app/tools/find_item/tests.terse" line="9" time="T"/>
                <testcase name="wrong on purpose" classname="tool find_item" \
            file="app/tools/find_item/tests.terse" line="14" time="T">
                  <failure message="rows_contain: no row matches {&quot;name&quot;:&quot;cherry&quot;}; \
            the closest row, in its fields:" type="expectation">\
            rows_contain: no row matches {"name":"cherry"}; the closest row, in its fields:
              {
            -   "name" : "cherry"
            +   "name" : "banana"
              }
            json_path $[0].qty: expected 8, got 7
            answer:
            [ {
              "id" : 3,
              "name" : "banana",
              "qty" : 7
            } ]
            </failure>
                </testcase>
                <testcase name="expects an error that does not come" classname="tool find_item" \
            file="app/tools/find_item/tests.terse" line="19" time="T">
                  <failure message="error: expected an error matching /boom/, the call succeeded" \
            type="expectation">error: expected an error matching /boom/, the call succeeded
            [ {
              "id" : 1,
              "name" : "apple",
              "qty" : 3
            }, {
              "id" : 2,
              "name" : "apricot",
              "qty" : 0
            } ]
            answer:
            [ {
              "id" : 1,
              "name" : "apple",
              "qty" : 3
            }, {
              "id" : 2,
              "name" : "apricot",
              "qty" : 0
            } ]
            </failure>
                </testcase>
              </testsuite>
            </testsuites>
            """);
  }

  @Test
  void theFilterPicksCasesAndAFilterMatchingNothingFails() throws IOException {
    ProjectFixture.write(work, PROJECT + SQLITE);

    CliRun some = svc(work, "test", "--filter", "bananas", "--output", "report.txt");
    CliRun none = svc(work, "test", "--filter", "nothing like this");

    assertThat(some.exitCode()).isZero();
    assertThat(Files.readString(work.resolve("report.txt")))
        .isEqualTo(
            """
            PASS  tool find_item  app/tools/find_item/tests.terse  (1 case)
            1 suite, 1 case: 1 passed, 0 failed, 0 errors
            """);
    assertThat(none.exitCode()).isEqualTo(1);
    assertThat(none.out()).isEqualTo("no test case matches --filter nothing like this\n");
  }

  @Test
  void aSuiteWhoseDatabaseCannotBeReachedIsAnErrorAndTheOthersStillRun() {
    ProjectFixture.write(
        work,
        PROJECT
            + """
            == app/adapters/pantry.terse
            connector: postgres
            connection_string: "postgresql://nobody@127.0.0.1:1/none"
            """);

    CliRun run = svc(work, "test", "--filter", "bananas");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .startsWith(
            "ERROR  tool find_item  app/tools/find_item/tests.terse  (did not run)\n"
                + "  the runtime could not start:\n")
        .endsWith("1 suite, 0 cases: 0 passed, 0 failed, 1 error\n");
  }

  @Test
  void anInMemorySqliteStandsInForAPostgresAdapterNoServerNeeded() {
    ProjectFixture.write(
        work,
        PROJECT.replace("fixtures: [", "in_memory_sqlite: true\nfixtures: [")
            + """
            == app/adapters/pantry.terse
            connector: postgres
            connection_string: "postgresql://nobody@127.0.0.1:1/none"
            """);

    CliRun run = svc(work, "test");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .isEqualTo(
            REPORT
                .replace("tests.terse:14:3", "tests.terse:15:3")
                .replace("tests.terse:19:3", "tests.terse:20:3"));
  }

  @Test
  void claimsStandForAVerifiedTokenTheJwtPluginChecksAndTheStatementBinds() {
    ProjectFixture.write(
        work,
        """
        == .svc
        name: desk
        == app/adapters/db.terse
        connector: sqlite
        connection_string: ":memory:"
        == app/tools/my_tickets/config.terse
        description: The caller's tickets.
        use: db
        statement: SELECT {{ auth.claims.sub }} AS reporter, {{ auth.claims.tenant }} AS tenant
        auth:
          plugin: jwt
          policy:
            issuer: https://auth.example.com/realms/desk
            audience: https://desk.example.com/mcp
            scopes: tickets:read
        == app/tools/my_tickets/tests.terse
        cases:
          the claims reach the statement:
            claims: {sub: alice, tenant: acme, scope: "tickets:read profile"}
            expect:
              result: [{reporter: alice, tenant: acme}]
          a token without the scope is refused:
            claims: {sub: bob, scope: profile}
            expect:
              error: "tickets:read"
          a call without a token is refused:
            expect:
              error: "needs an access token"
        """);

    CliRun run = svc(work, "test");

    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(run.out())
        .isEqualTo(
            """
            PASS  tool my_tickets  app/tools/my_tickets/tests.terse  (3 cases)
            1 suite, 3 cases: 3 passed, 0 failed, 0 errors
            """);
  }

  @Test
  void claimsThatAreNoMappingAreAMistakeWithItsPosition() {
    ProjectFixture.write(
        work,
        """
        == .svc
        name: desk
        == app/adapters/db.terse
        connector: sqlite
        connection_string: ":memory:"
        == app/tools/t/config.terse
        description: T.
        use: db
        statement: SELECT 1 AS one
        == app/tools/t/tests.terse
        cases:
          scopes as a list:
            claims: {sub: alice, scope: [a, b]}
            expect: {row_count: 1}
          not a mapping:
            claims: alice
            expect: {row_count: 1}
        """);

    CliRun run = svc(work, "test");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains(
            "app/tools/t/tests.terse:3:13: error[invalid-test-claims]: claim `scope` must be a"
                + " string")
        .contains(
            "app/tools/t/tests.terse:6:13: error[invalid-test-claims]: `claims` must be a mapping");
  }

  @Test
  void anAgentRunsWithAScriptedModelAndItsToolCallsGoThroughThePipeline() {
    ProjectFixture.write(
        work,
        PROJECT
            + SQLITE
            + """
            == app/agents/clerk/config.terse
            description: Answers questions about the pantry.
            instruction: Use the tools to answer.
            model: {provider: openai_compatible, model: any}
            tool_access: {mode: allow_list, tools: [find_item]}
            == app/agents/clerk/tests.terse
            fixtures: {pantry: [../../../db/items.sql]}
            cases:
              looks the bananas up:
                message: How many bananas are there?
                model:
                  - tool_calls: [{tool: find_item, arguments: {prefix: ban}}]
                  - text: There are 7 bananas.
                expect:
                  answer: There are 7 bananas.
                  tool_calls: [{tool: find_item, arguments: {prefix: ban}}]
                  json_path: {"$.tool_calls[0].result[0].qty": 7}
              may not list everything:
                message: List all items.
                model:
                  - tool_calls: [{tool: list_items}]
                  - text: I cannot.
                expect:
                  tool_calls: [{tool: list_items}]
                  json_path: {"$.tool_calls[0].failed": true}
              says more than the script holds:
                message: Hi
                model:
                  - tool_calls: [{tool: find_item, arguments: {prefix: a}}]
                expect:
                  answer: Hello
            """);

    CliRun run = svc(work, "test", "--filter", "clerk/");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .isEqualTo(
            """
            ERROR  agent clerk  app/agents/clerk/tests.terse  (1 of 3 cases failed)
              ERROR says more than the script holds  app/agents/clerk/tests.terse:20:3
                the agent asked the model for turn 2, but the case scripts 1 turn (end `model` \
            with a turn that only has `text`)
            1 suite, 3 cases: 2 passed, 0 failed, 1 error
            """);
  }

  @Test
  void anInvalidTestFileStopsTheRunWithItsDiagnostics() {
    ProjectFixture.write(
        work, PROJECT.replace("json_path: {\"$[0].qty\": 7}", "json_path: {\"qty\": 7}") + SQLITE);

    CliRun run = svc(work, "test");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .startsWith(
            "app/tools/find_item/tests.terse:13:19: error[invalid-json-path]: `qty` is not a JSON"
                + " path: a JSON path starts with `$`\n");
  }

  static final String SQLITE =
      """
      == app/adapters/pantry.terse
      connector: sqlite
      connection_string: "file:./pantry.db"
      """;

  static String postgres() {
    return """
    == app/adapters/pantry.terse
    connector: postgres
    connection_string: "%s"
    """
        .formatted(POSTGRES.connectionString());
  }
}
