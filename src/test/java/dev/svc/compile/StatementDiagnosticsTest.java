package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rules of statements and their {@code {{ inputs.x }}} placeholders, for SQL, MongoDB and Redis,
 * each pinned to its exact output.
 */
class StatementDiagnosticsTest {
  @TempDir Path dir;

  static final String SQL =
      """
      == app/adapters/db.terse
      connector: postgres
      connection_string: postgresql://u@localhost:5432/shop
      """;

  static final String MONGO =
      """
      == app/adapters/db.terse
      connector: mongodb
      connection_string: mongodb://localhost:27017/shop
      """;

  static final String REDIS =
      """
      == app/adapters/db.terse
      connector: redis
      connection_string: redis://localhost:6379/0
      """;

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "a placeholder naming an undeclared input is an error with a did-you-mean",
            SQL
                + """
                == app/tools/get/config.terse
                description: One item.
                use: db
                statement: SELECT * FROM items WHERE id = {{ inputs.item_idd }}
                inputs:
                  item_id: {type: int}
                """,
            """
            app/tools/get/config.terse:3:12: error[unknown-input]: the statement uses `{{ inputs.item_idd }}`, but the tool has no input `item_idd`
              hint: did you mean `item_id`?
            1 error, 0 warnings
            """),
        argumentSet(
            "with an input transform, placeholders may name inputs it adds",
            SQL
                + """
                == app/tools/get/config.terse
                description: One item.
                use: db
                statement: SELECT * FROM items WHERE id = {{ inputs.id }} ORDER BY id
                inputs:
                  slug: {type: string}
                == app/tools/get/input.ts
                export default ({ inputs }) => ({ id: Number(inputs.slug) });
                """,
            ""),
        argumentSet(
            "`{{ input.x }}` is not an input placeholder",
            SQL
                + """
                == app/tools/get/config.terse
                description: One item.
                use: db
                statement: SELECT * FROM items WHERE id = {{ input.id }}
                inputs:
                  id: {type: int}
                """,
            """
            app/tools/get/config.terse:3:12: error[invalid-placeholder]: `{{ input.id }}` is not an input placeholder
              hint: did you mean `{{ inputs.id }}`?
            1 error, 0 warnings
            """),
        argumentSet(
            "an env placeholder in a statement is rejected",
            SQL
                + """
                == app/tools/get/config.terse
                description: One item.
                use: db
                statement: SELECT * FROM items WHERE tenant = {{ env.TENANT }}
                """,
            """
            app/tools/get/config.terse:3:12: error[invalid-placeholder]: `{{ env.TENANT }}` is not an input placeholder
              hint: environment variables are not substituted in statements; keep secrets in the adapter's connection_string, or pass the value as an input
            1 error, 0 warnings
            """),
        argumentSet(
            "a placeholder that is never closed is rejected",
            SQL
                + """
                == app/tools/get/config.terse
                description: One item.
                use: db
                statement: SELECT * FROM items WHERE id = {{ inputs.id
                inputs:
                  id: {type: int}
                """,
            """
            app/tools/get/config.terse:3:12: error[invalid-placeholder]: a placeholder opened with `{{` is never closed with `}}`
            1 error, 0 warnings
            """),
        argumentSet(
            "a placeholder cannot stand for a quoted SQL identifier",
            SQL
                + """
                == app/tools/get/config.terse
                description: Any table.
                use: db
                statement: SELECT * FROM "{{ inputs.table }}"
                inputs:
                  table: {type: string}
                """,
            """
            app/tools/get/config.terse:3:12: error[invalid-placeholder]: a placeholder cannot stand for a table or column name ("{{ inputs.table }}")
              hint: values are always bound as parameters; choose between fixed statements with separate tools
            1 error, 0 warnings
            """),
        argumentSet(
            "a placeholder cannot stand for a table name after FROM",
            SQL
                + """
                == app/tools/get/config.terse
                description: Any table.
                use: db
                statement: SELECT * FROM {{ inputs.table }}
                inputs:
                  table: {type: string}
                """,
            """
            app/tools/get/config.terse:3:12: error[invalid-placeholder]: a placeholder cannot stand for a table or column name (after FROM)
              hint: values are always bound as parameters; choose between fixed statements with separate tools
            1 error, 0 warnings
            """),
        argumentSet(
            "a placeholder cannot choose the sort column, which would sort by a constant",
            SQL
                + """
                == app/tools/get/config.terse
                description: Sorted items.
                use: db
                statement: |
                  SELECT * FROM items
                  ORDER BY
                    {{ inputs.column }}
                inputs:
                  column: {type: string}
                """,
            """
            app/tools/get/config.terse:3:12: error[invalid-placeholder]: a placeholder cannot stand for a table or column name (after ORDER BY)
              hint: values are always bound as parameters; choose between fixed statements with separate tools
            1 error, 0 warnings
            """),
        argumentSet(
            "placeholders after FROM inside a function call, IS DISTINCT FROM, LIMIT and VALUES are values",
            SQL
                + """
                == app/tools/get/config.terse
                description: Items.
                use: db
                statement: >-
                  SELECT EXTRACT(YEAR FROM {{ inputs.day }}) AS year, name FROM items
                  WHERE owner IS DISTINCT FROM {{ inputs.owner }}
                  ORDER BY name LIMIT {{ inputs.limit }}
                inputs:
                  day: {type: datetime}
                  owner: {type: string}
                  limit: {type: int}
                == app/tools/add/config.terse
                description: Adds an item.
                use: db
                statement: INSERT INTO items (name) VALUES ({{ inputs.name }})
                inputs:
                  name: {type: string}
                """,
            ""),
        argumentSet(
            "a bare question mark in SQL is rejected",
            SQL
                + """
                == app/tools/get/config.terse
                description: One item.
                use: db
                statement: SELECT * FROM items WHERE id = ?
                """,
            """
            app/tools/get/config.terse:3:12: error[invalid-statement]: the statement contains a bare `?`, which the driver would take as a parameter
              hint: write values as `{{ inputs.<name> }}`; for the jsonb `?` operator write `??`
            1 error, 0 warnings
            """),
        argumentSet(
            "an SQL string literal that is never closed is rejected",
            SQL
                + """
                == app/tools/get/config.terse
                description: One item.
                use: db
                statement: "SELECT * FROM items WHERE name = 'x"
                """,
            """
            app/tools/get/config.terse:3:12: error[invalid-statement]: a string literal opened with ' is never closed
            1 error, 0 warnings
            """),
        argumentSet(
            "an empty statement is rejected",
            SQL
                + """
                == app/tools/get/config.terse
                description: One item.
                use: db
                statement: " "
                """,
            """
            app/tools/get/config.terse:3:12: error[invalid-statement]: the statement is empty
            1 error, 0 warnings
            """),
        argumentSet(
            "a MongoDB statement must be valid JSON",
            MONGO
                + """
                == app/tools/find/config.terse
                description: Finds users.
                use: db
                statement: '{"database": "shop", "command": {"find": "users",}}'
                """,
            """
            app/tools/find/config.terse:3:12: error[invalid-statement]: the MongoDB statement is not valid JSON: Unexpected character ('}' (code 125)): was expecting double-quote to start property name
              hint: write {"database": "<db>", "command": {"<commandName>": ...}}
            1 error, 0 warnings
            """),
        argumentSet(
            "a MongoDB statement needs a database",
            MONGO
                + """
                == app/tools/find/config.terse
                description: Finds users.
                use: db
                statement: '{"command": {"find": "users"}}'
                """,
            """
            app/tools/find/config.terse:3:12: error[invalid-statement]: the MongoDB statement needs a string field `database`
            1 error, 0 warnings
            """),
        argumentSet(
            "a MongoDB statement needs a command",
            MONGO
                + """
                == app/tools/find/config.terse
                description: Finds users.
                use: db
                statement: '{"database": "shop"}'
                """,
            """
            app/tools/find/config.terse:3:12: error[invalid-statement]: the MongoDB statement needs an object field `command` whose first key is the command name
              hint: e.g. "command": {"find": "users", "filter": {"age": {{ inputs.age }}}}
            1 error, 0 warnings
            """),
        argumentSet(
            "a MongoDB placeholder cannot be an object key",
            MONGO
                + """
                == app/tools/find/config.terse
                description: Finds users.
                use: db
                statement: '{"database": "shop", "command": {"find": "users", "filter": {"{{ inputs.field }}": 1}}}'
                inputs:
                  field: {type: string}
                """,
            """
            app/tools/find/config.terse:3:12: error[invalid-placeholder]: a placeholder cannot be part of an object key
              hint: values can never change the document's structure; put the placeholder in a value
            1 error, 0 warnings
            """),
        argumentSet(
            "a MongoDB placeholder standing as a JSON value is valid",
            MONGO
                + """
                == app/tools/find/config.terse
                description: Finds users.
                use: db
                statement: '{"database": "shop", "command": {"find": "users", "filter": {"age": {{ inputs.age }}, "name": "{{ inputs.name }}"}}}'
                inputs:
                  age: {type: int}
                  name: {type: string}
                """,
            ""),
        argumentSet(
            "a Redis command with an unbalanced quote is rejected",
            REDIS
                + """
                == app/tools/set/config.terse
                description: Sets a greeting.
                use: db
                statement: SET greeting "hello {{ inputs.name }}
                inputs:
                  name: {type: string}
                """,
            """
            app/tools/set/config.terse:3:12: error[invalid-statement]: a double quote in the Redis command is never closed
            1 error, 0 warnings
            """),
        argumentSet(
            "a Redis command name cannot be a placeholder",
            REDIS
                + """
                == app/tools/run/config.terse
                description: Runs anything.
                use: db
                statement: "{{ inputs.command }} greeting"
                inputs:
                  command: {type: string}
                """,
            """
            app/tools/run/config.terse:3:12: error[invalid-placeholder]: the Redis command name cannot be a placeholder
              hint: write the command (GET, HGETALL, …) literally; only its arguments take inputs
            1 error, 0 warnings
            """));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }
}
