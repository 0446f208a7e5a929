package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.Model;
import dev.svc.model.Tool;
import dev.svc.model.ToolAnnotations;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** MCP annotations derived from each tool's statement, and overridden by its `annotations`. */
class ToolAnnotationsTest {
  @TempDir Path dir;

  private static final Optional<Boolean> YES = Optional.of(true);
  private static final Optional<Boolean> NO = Optional.of(false);
  private static final Optional<Boolean> UNSET = Optional.empty();

  @ParameterizedTest(name = "{0} on {1}: {2}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
          SELECT * FROM items WHERE id = 1                               | postgres | READ
          "  with t AS (SELECT 1) select * from t"                        | postgres | READ
          VALUES (1), (2)                                                | postgres | READ
          SELECT * INTO copy FROM items                                  | postgres | WRITE
          WITH gone AS (DELETE FROM items RETURNING *) SELECT * FROM gone | postgres | CHANGE
          WITH n AS (INSERT INTO log VALUES (1) RETURNING *) SELECT * FROM n | postgres | ADD
          INSERT INTO items (id) VALUES (1)                              | postgres | ADD
          INSERT INTO items (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET id = 2 | postgres | CHANGE
          INSERT INTO items (id) VALUES (1) ON CONFLICT DO NOTHING       | postgres | ADD
          INSERT INTO items (id) VALUES (1) ON DUPLICATE KEY UPDATE id = 2 | mysql  | CHANGE
          INSERT OR REPLACE INTO items (id) VALUES (1)                   | sqlite   | CHANGE
          REPLACE INTO items (id) VALUES (1)                             | mysql    | CHANGE
          UPDATE items SET name = 'SELECT'                               | postgres | CHANGE
          DELETE FROM items                                              | sqlite   | CHANGE
          TRUNCATE items                                                 | postgres | CHANGE
          DROP TABLE items                                               | mysql    | CHANGE
          CREATE TABLE t (x int)                                         | postgres | WRITE
          CALL refresh()                                                 | mysql    | WRITE
          SELECT 'DELETE FROM items' AS text                             | postgres | READ
          SELECT $$ ; DELETE $$ AS text                                  | postgres | READ
          SELECT `delete` FROM items                                     | mysql    | READ
          SELECT 1 /* ; DELETE */                                        | postgres | READ
          SELECT 1; SELECT 2                                             | sqlite   | READ
          SELECT 1; DELETE FROM items                                    | sqlite   | CHANGE
          """)
  void sqlStatementsAreClassifiedByWhatTheyDo(String sql, String dialect, String kind) {
    Optional<dev.svc.model.Statement> statement =
        new StatementCompiler(new dev.svc.diagnostic.Diagnostics())
            .compile(
                sql,
                dev.svc.model.ConnectorKind.parse(dialect).orElseThrow(),
                dev.svc.diagnostic.Origin.ofFile("t"));
    assertThat(
            StatementEffect.of(
                    statement.orElseThrow(), dev.svc.model.ConnectorKind.parse(dialect).get())
                .kind()
                .name())
        .isEqualTo(kind);
  }

  @Test
  void hintsAreDerivedFromTheStatementAndOverriddenByTheToolsBlock() {
    Model model =
        ProjectFixture.model(
            dir,
            ProjectFixture.DEFAULT_ROOT
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: ":memory:"
                == app/adapters/kv.terse
                connector: redis
                connection_string: "redis://localhost:6379"
                == app/tools/list/config.terse
                description: Lists.
                use: db
                statement: SELECT * FROM items
                == app/tools/add/config.terse
                description: Adds.
                use: db
                statement: INSERT INTO items (name) VALUES ({{ inputs.name }})
                inputs: {name: {type: string}}
                == app/tools/remove/config.terse
                description: Removes.
                use: db
                statement: DELETE FROM items WHERE id = {{ inputs.id }}
                inputs: {id: {type: int}}
                annotations: {idempotent_hint: true, title: Remove an item}
                == app/tools/guarded/config.terse
                description: Read-only, whatever the statement says.
                use: db
                statement: SELECT refresh_items()
                read_only: true
                == app/tools/get/config.terse
                description: Gets.
                use: kv
                statement: GET "k:{{ inputs.k }}"
                inputs: {k: {type: string}}
                == app/tools/hello/config.terse
                description: Says hello.
                annotations: {read_only_hint: true, open_world_hint: false}
                == app/tools/hello/handler.ts
                export default () => 1;
                == app/tools/fetcher/config.terse
                description: Fetches.
                == app/tools/fetcher/handler.ts
                export default () => 1;
                """);

    assertThat(annotations(model, "list")).isEqualTo(ToolAnnotations.READS);
    assertThat(annotations(model, "add"))
        .isEqualTo(new ToolAnnotations(Optional.empty(), NO, NO, UNSET, NO));
    assertThat(annotations(model, "remove"))
        .isEqualTo(new ToolAnnotations(Optional.of("Remove an item"), NO, YES, YES, NO));
    assertThat(annotations(model, "guarded")).isEqualTo(ToolAnnotations.READS);
    assertThat(tool(model, "guarded").readOnly()).isTrue();
    assertThat(tool(model, "list").readOnly()).isFalse();
    assertThat(annotations(model, "get")).isEqualTo(ToolAnnotations.READS);
    assertThat(annotations(model, "hello"))
        .isEqualTo(new ToolAnnotations(Optional.empty(), YES, UNSET, UNSET, NO));
    assertThat(annotations(model, "fetcher")).isEqualTo(ToolAnnotations.NONE);
  }

  private static Tool tool(Model model, String name) {
    return model.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  private static ToolAnnotations annotations(Model model, String name) {
    return tool(model, name).annotations();
  }
}
