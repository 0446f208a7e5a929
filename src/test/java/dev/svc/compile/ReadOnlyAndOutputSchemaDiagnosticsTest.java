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

/** Rules of `read_only`, `annotations` and `output_schema`, each pinned to its output. */
class ReadOnlyAndOutputSchemaDiagnosticsTest {
  @TempDir Path dir;

  static final String ADAPTERS =
      """
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/adapters/docs.terse
      connector: mongodb
      connection_string: "mongodb://localhost:27017"
      == app/adapters/kv.terse
      connector: redis
      connection_string: "redis://localhost:6379"
      """;

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "a read-only SQL tool may hold a single statement only",
            ADAPTERS
                + """
                == app/tools/t/config.terse
                description: T.
                use: db
                statement: "SELECT 1; DELETE FROM items"
                read_only: true
                """,
            """
            app/tools/t/config.terse:4:12: error[invalid-read-only]: a `read_only` tool runs its statement in one read-only transaction, so it must be a single statement; this one has 2
              hint: split it into one tool per statement, or drop `read_only`
            1 error, 0 warnings
            """),
        argumentSet(
            "a read-only tool whose statement writes is refused by the database on every call",
            ADAPTERS
                + """
                == app/tools/t/config.terse
                description: T.
                use: db
                statement: INSERT INTO notes (body) VALUES ('x')
                read_only: true
                """,
            """
            app/tools/t/config.terse:4:12: warning[conflicting-read-only]: the tool is `read_only`, but its statement is an `INSERT`: the database will refuse every call
              hint: drop `read_only` if the tool is meant to write
            0 errors, 1 warning
            """),
        argumentSet(
            "a semicolon inside a string or a comment does not make a second statement",
            ADAPTERS
                + """
                == app/tools/t/config.terse
                description: T.
                use: db
                statement: "SELECT ';' AS a -- ; not one\\n;"
                read_only: true
                """,
            ""),
        argumentSet(
            "a read-only MongoDB tool may only run a reading command",
            ADAPTERS
                + """
                == app/tools/t/config.terse
                description: T.
                use: docs
                statement: '{"database": "app", "command": {"delete": "docs", "deletes": [{"q": {}, "limit": 0}]}}'
                read_only: true
                """,
            """
            app/tools/t/config.terse:4:12: error[invalid-read-only]: mongodb has no read-only mode, so svc allows `read_only` only on commands that read; `delete` is not one of them
              hint: drop `read_only`, or use a reading command: aggregate, collStats, count, dbStats, distinct, find, listCollections, listIndexes
            1 error, 0 warnings
            """),
        argumentSet(
            "a read-only MongoDB aggregate may not write with $out or $merge",
            ADAPTERS
                + """
                == app/tools/t/config.terse
                description: T.
                use: docs
                statement: '{"database": "app", "command": {"aggregate": "docs", "pipeline": [{"$out": "copy"}], "cursor": {}}}'
                read_only: true
                """,
            """
            app/tools/t/config.terse:4:12: error[invalid-read-only]: mongodb has no read-only mode, so svc allows `read_only` only on commands that read; `aggregate` with $out or $merge writes
              hint: drop `read_only`, or use a reading command: aggregate, collStats, count, dbStats, distinct, find, listCollections, listIndexes
            1 error, 0 warnings
            """),
        argumentSet(
            "a read-only Redis tool may only run a reading command",
            ADAPTERS
                + """
                == app/tools/t/config.terse
                description: T.
                use: kv
                statement: DEL "user:{{ inputs.id }}"
                read_only: true
                inputs:
                  id: {type: string}
                """,
            """
            app/tools/t/config.terse:4:12: error[invalid-read-only]: redis has no read-only mode, so svc allows `read_only` only on commands that read; `DEL` is not one of them
              hint: drop `read_only`, or use a reading command: GET, MGET, HGETALL, LRANGE, SMEMBERS, ZRANGE, SCAN, … (the list is in docs/configuration.md, Read-only tools)
            1 error, 0 warnings
            """),
        argumentSet(
            "read-only reading commands on MongoDB and Redis are fine",
            ADAPTERS
                + """
                == app/tools/f/config.terse
                description: F.
                use: docs
                statement: '{"database": "app", "command": {"find": "docs", "filter": {}}}'
                read_only: true
                == app/tools/g/config.terse
                description: G.
                use: kv
                statement: HGETALL user
                read_only: true
                """,
            ""),
        argumentSet(
            "a handler cannot be read-only",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            read_only: true
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:2:12: error[invalid-read-only]: `read_only` applies to a tool that runs a statement; a handler's effects are its own
              hint: drop `read_only`; to tell clients the handler only reads, set `annotations: {read_only_hint: true}`
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown annotation is an error with a did-you-mean",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            annotations: {read_only: true}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:2:15: error[unknown-key]: unknown key `read_only` in the tool `annotations`
              hint: did you mean `read_only_hint`?
            1 error, 0 warnings
            """),
        argumentSet(
            "an output schema must be a mapping",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            output_schema: [object]
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:2:16: error[invalid-type]: `output_schema` must be a mapping, found a list
            1 error, 0 warnings
            """),
        argumentSet(
            "an output schema needs a type",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            output_schema:
              properties: {greeting: {type: string}}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:3: error[invalid-output-schema]: the `output_schema` has no `type`; MCP requires an object schema at its root
              hint: add `type: object` and describe the fields under `properties:`
            1 error, 0 warnings
            """),
        argumentSet(
            "an output schema's root must be an object schema",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            output_schema:
              type: array
              items: {type: string}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:9: error[invalid-output-schema]: the `output_schema` root has `type` `array`; MCP requires `object` (structuredContent is always a JSON object)
              hint: write `type: object`; a list result is sent as `{"result": [...]}`, so describe it under `properties: {result: {type: array}}`
            1 error, 0 warnings
            """),
        argumentSet(
            "a number JSON cannot hold in an output schema is reported where it is",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            output_schema:
              type: object
              properties:
                n: {type: number, maximum: .inf}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:5:32: error[invalid-output-schema]: `.inf` in the `output_schema` is not a JSON number
              hint: write a finite number, or quote it to make it a string
            1 error, 0 warnings
            """));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }
}
