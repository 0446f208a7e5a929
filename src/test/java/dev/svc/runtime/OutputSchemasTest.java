package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.connector.ResultShape;
import dev.svc.connector.StatementFailedException;
import dev.svc.connector.StatementOptions;
import dev.svc.model.Model;
import dev.svc.model.Statement;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Output schemas: derived from described statements, declared ones as written, failing soft. */
class OutputSchemasTest {
  @TempDir Path dir;

  @Test
  void rowsGetOnePropertyPerColumnWithNullUnlessTheColumnIsNotNull() {
    JsonNode schema =
        OutputSchemas.statementResult(
            new ResultShape.Rows(
                List.of(
                    new ResultShape.Column("id", List.of("integer"), false),
                    new ResultShape.Column("price", List.of("number", "string"), true),
                    new ResultShape.Column("doc", List.of(), true))));

    assertThat(schema)
        .hasToString(
            "{\"type\":\"object\",\"properties\":{\"rows\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
                + "\"properties\":{\"id\":{\"type\":[\"integer\"]},\"price\":{\"type\":[\"number\",\"string\",\"null\"]},"
                + "\"doc\":{}},\"required\":[\"id\",\"price\",\"doc\"]}},"
                + "\"truncated\":{\"type\":\"boolean\"},\"returned_rows\":{\"type\":\"integer\"},"
                + "\"limit\":{\"type\":\"string\",\"enum\":[\"max_rows\",\"max_bytes\"]},"
                + "\"next_cursor\":{\"type\":\"string\"}},\"required\":[\"rows\"]}");
  }

  @Test
  void aRepeatedColumnLabelIsOneKeyAsInTheRows() {
    JsonNode schema =
        OutputSchemas.statementResult(
            new ResultShape.Rows(
                List.of(
                    new ResultShape.Column("id", List.of("integer"), false),
                    new ResultShape.Column("id", List.of("string"), false))));

    JsonNode items = schema.path("properties").path("rows").path("items");
    assertThat(items.path("properties")).hasToString("{\"id\":{\"type\":[\"string\"]}}");
    assertThat(items.path("required")).hasToString("[\"id\"]");
  }

  @Test
  void aStatementWithoutRowsHasTheRowsAffectedShape() {
    assertThat(
            OutputSchemas.statementResult(new ResultShape.RowsAffected())
                .path("properties")
                .path("rows")
                .path("items"))
        .hasToString(
            "{\"type\":\"object\",\"properties\":{\"rows_affected\":{\"type\":\"integer\"}},"
                + "\"required\":[\"rows_affected\"]}");
  }

  @Test
  void samplesHaveTheDeclaredTypeOfEachInputAndNoneBehindAnInputTransform() {
    Model model =
        ProjectFixture.model(
            dir,
            ProjectFixture.DEFAULT_ROOT
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: ":memory:"
                == app/tools/typed/config.terse
                description: Typed.
                use: db
                statement: SELECT 1
                inputs:
                  s: {type: string}
                  i: {type: int}
                  f: {type: float}
                  b: {type: boolean}
                  t: {type: datetime}
                == app/tools/mapped/config.terse
                description: Mapped.
                use: db
                statement: SELECT {{ inputs.x }} AS x
                inputs:
                  q: {type: string}
                == app/tools/mapped/input.ts
                export default ({ inputs }: { inputs: { q: string } }) => ({ x: inputs.q });
                """);

    Map<String, Object> typed = OutputSchemas.samples(tool(model, "typed"));
    assertThat(typed.keySet()).containsExactly("s", "i", "f", "b", "t");
    assertThat(typed.values())
        .extracting(v -> v.getClass().getSimpleName())
        .containsExactly("String", "Long", "Double", "Boolean", "OffsetDateTime");
    assertThat(OutputSchemas.samples(tool(model, "mapped"))).isEmpty();
  }

  private static dev.svc.model.Tool tool(Model model, String name) {
    return model.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aStatementTheDatabaseCannotDescribeGetsNoSchemaAndOthersStillDo() {
    Model model =
        ProjectFixture.model(
            dir,
            ProjectFixture.DEFAULT_ROOT
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: ":memory:"
                == app/tools/good/config.terse
                description: Good.
                use: db
                statement: SELECT 1 AS one
                == app/tools/bad/config.terse
                description: Bad.
                use: db
                statement: SELECT * FROM missing
                == app/tools/transformed/config.terse
                description: Transformed.
                use: db
                statement: SELECT 1 AS one
                == app/tools/transformed/output.ts
                export default ({ results }: { results: unknown[] }) => ({ n: results.length });
                == app/tools/greet/config.terse
                description: Greets.
                output_schema: {type: object, properties: {greeting: {type: string}}}
                == app/tools/greet/handler.ts
                export default () => ({ greeting: "hi" });
                """);
    Connector describing =
        new Connector() {
          @Override
          public void check(Deadline deadline) {}

          @Override
          public JsonNode execute(
              Statement statement,
              Map<String, Object> values,
              Deadline deadline,
              StatementOptions options) {
            throw new UnsupportedOperationException();
          }

          @Override
          public Optional<ResultShape> describe(
              Statement statement, Map<String, Object> samples, Deadline deadline) {
            if (statement.source().contains("missing")) {
              throw new StatementFailedException("no such table: missing", false, null);
            }
            return Optional.of(
                new ResultShape.Rows(
                    List.of(new ResultShape.Column("one", List.of("integer"), false))));
          }

          @Override
          public void close() {}
        };

    OutputSchemas schemas = OutputSchemas.of(model, Map.of("db", describing));

    assertThat(schemas.of("good")).isPresent();
    assertThat(schemas.of("bad")).isEmpty();
    assertThat(schemas.of("transformed")).isEmpty();
    assertThat(schemas.of("greet").orElseThrow())
        .hasToString("{\"type\":\"object\",\"properties\":{\"greeting\":{\"type\":\"string\"}}}");
  }
}
