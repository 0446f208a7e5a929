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

/** Rules of tool files: backend, scripts, inputs, auth and names, each pinned to its output. */
class ToolDiagnosticsTest {
  @TempDir Path dir;

  /** An adapter named {@code db}. */
  static final String DB =
      """
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      """;

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "a tool without `description` is an error",
            """
            == app/tools/hello/config.terse
            handler: handler.ts
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:1:1: error[missing-field]: `description` is missing from the tool
              hint: add `description:` (what the tool does; shown to models)
            1 error, 0 warnings
            """),
        argumentSet(
            "an empty tool description is an error",
            """
            == app/tools/hello/config.terse
            description: ""
            handler: handler.ts
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:1:14: error[missing-field]: the tool's `description` is empty
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown key in a tool is an error with a did-you-mean",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            handler: handler.ts
            inptus:
              name: {type: string}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:1: error[unknown-key]: unknown key `inptus` in the tool
              hint: did you mean `inputs`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a description that is a list is the wrong type",
            """
            == app/tools/hello/config.terse
            description: [says, hello]
            handler: handler.ts
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:1:14: error[invalid-type]: `description` must be a string, found a list
            1 error, 0 warnings
            """),
        argumentSet(
            "a tool with both `use` and `handler` is rejected",
            DB
                + """
                == app/tools/count/config.terse
                description: Counts.
                use: db
                statement: SELECT 1
                handler: handler.ts
                == app/tools/count/handler.ts
                export default () => 1;
                """,
            """
            app/tools/count/config.terse:4:10: error[conflicting-backend]: the tool sets both `use` and `handler`; exactly one is allowed
              hint: keep `use` + `statement` for a database tool, or `handler` for a script tool
            1 error, 0 warnings
            """),
        argumentSet(
            "a handler.ts found by convention counts as a handler beside `use`",
            DB
                + """
                == app/tools/count/config.terse
                description: Counts.
                use: db
                statement: SELECT 1
                == app/tools/count/handler.ts
                export default () => 1;
                """,
            """
            app/tools/count/config.terse:2:6: error[conflicting-backend]: the tool uses adapter `db`, and handler.ts beside it is a handler by convention; exactly one is allowed
              hint: remove or rename handler.ts, or drop `use` and `statement`
            1 error, 0 warnings
            """),
        argumentSet(
            "a tool with neither `use` nor `handler` is rejected",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            """,
            """
            app/tools/hello/config.terse:1:1: error[missing-backend]: the tool has neither `use` nor `handler`
              hint: add `use: <adapter>` and a `statement`, or `handler: handler.ts` (a handler.ts beside config.terse is found by itself)
            1 error, 0 warnings
            """),
        argumentSet(
            "a handler.ts beside config.terse counts as the handler",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            == app/tools/hello/handler.ts
            export default () => "hello";
            """,
            ""),
        argumentSet(
            "`use` naming an unknown adapter is an error with a did-you-mean",
            DB
                + """
                == app/tools/count/config.terse
                description: Counts.
                use: dbb
                statement: SELECT 1
                """,
            """
            app/tools/count/config.terse:2:6: error[unknown-adapter]: no adapter is named `dbb`
              hint: did you mean `db`?
            1 error, 0 warnings
            """),
        argumentSet(
            "`use` without a statement is rejected",
            DB
                + """
                == app/tools/count/config.terse
                description: Counts.
                use: db
                """,
            """
            app/tools/count/config.terse:2:6: error[missing-statement]: the tool uses adapter `db` but has no `statement`
              hint: add the SQL or command to run, e.g. `statement: SELECT * FROM items WHERE id = {{ inputs.id }}`
            1 error, 0 warnings
            """),
        argumentSet(
            "a statement without `use` is rejected once",
            """
            == app/tools/count/config.terse
            description: Counts.
            statement: SELECT 1
            """,
            """
            app/tools/count/config.terse:2:12: error[statement-without-adapter]: the tool has a `statement` but no `use`
              hint: add `use: <adapter>` to run it on a database
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown input type is an error with a did-you-mean",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            inputs:
              name: {type: str}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:16: error[invalid-input-type]: `type` is `str`, which is not supported
              hint: did you mean `string`?
            1 error, 0 warnings
            """),
        argumentSet(
            "an input type spelt like another language's is an error with a did-you-mean",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            inputs:
              times: {type: integer}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:17: error[invalid-input-type]: `type` is `integer`, which is not supported
              hint: did you mean `int`?
            1 error, 0 warnings
            """),
        argumentSet(
            "an int default that is not a whole number is rejected",
            """
            == app/tools/list/config.terse
            description: Lists.
            inputs:
              limit: {type: int, default: "ten"}
            == app/tools/list/handler.ts
            export default () => 1;
            """,
            """
            app/tools/list/config.terse:3:31: error[invalid-default]: the default `ten` of input `limit` is not a valid int
              hint: write a whole number such as "10"
            1 error, 0 warnings
            """),
        argumentSet(
            "a float default that is not a number is rejected",
            """
            == app/tools/list/config.terse
            description: Lists.
            inputs:
              ratio: {type: float, default: "half"}
            == app/tools/list/handler.ts
            export default () => 1;
            """,
            """
            app/tools/list/config.terse:3:33: error[invalid-default]: the default `half` of input `ratio` is not a valid float
              hint: write a number such as "1.5"
            1 error, 0 warnings
            """),
        argumentSet(
            "a boolean default other than true or false is rejected",
            """
            == app/tools/list/config.terse
            description: Lists.
            inputs:
              all: {type: boolean, default: "yes"}
            == app/tools/list/handler.ts
            export default () => 1;
            """,
            """
            app/tools/list/config.terse:3:33: error[invalid-default]: the default `yes` of input `all` is not a valid boolean
              hint: write "true" or "false"
            1 error, 0 warnings
            """),
        argumentSet(
            "an input header that is not an HTTP header name is rejected",
            """
            == app/tools/find/config.terse
            description: Finds.
            inputs:
              region: {header: "Cloud Region"}
            == app/tools/find/handler.ts
            export default () => 1;
            """,
            """
            app/tools/find/config.terse:3:20: error[invalid-input-header]: the `header` `Cloud Region` of input `region` is not an HTTP header name
              hint: use letters, digits and `-` (an RFC 9110 token), e.g. `header: Region`; clients send it as `Mcp-Param-<header>`
            1 error, 0 warnings
            """),
        argumentSet(
            "an empty input header is rejected",
            """
            == app/tools/find/config.terse
            description: Finds.
            inputs:
              region: {header: ""}
            == app/tools/find/handler.ts
            export default () => 1;
            """,
            """
            app/tools/find/config.terse:3:20: error[invalid-input-header]: the `header` of input `region` is empty
              hint: use letters, digits and `-` (an RFC 9110 token), e.g. `header: Region`; clients send it as `Mcp-Param-<header>`
            1 error, 0 warnings
            """),
        argumentSet(
            "a header on a float input is rejected",
            """
            == app/tools/find/config.terse
            description: Finds.
            inputs:
              ratio: {type: float, header: Ratio}
            == app/tools/find/handler.ts
            export default () => 1;
            """,
            """
            app/tools/find/config.terse:3:32: error[invalid-input-header]: input `ratio` is a `float`, which MCP does not allow in a header
              hint: use `int`, `string`, `boolean` or `datetime`, or remove `header`
            1 error, 0 warnings
            """),
        argumentSet(
            "two inputs with the same header, ignoring case, are rejected",
            """
            == app/tools/find/config.terse
            description: Finds.
            inputs:
              region: {header: Region}
              zone: {header: region}
            == app/tools/find/handler.ts
            export default () => 1;
            """,
            """
            app/tools/find/config.terse:4:18: error[duplicate-input-header]: inputs `region` and `zone` both use the header `region`
              hint: header names ignore case; give each input its own
            1 error, 0 warnings
            """),
        argumentSet(
            "a datetime default that is not RFC 3339 is rejected",
            """
            == app/tools/list/config.terse
            description: Lists.
            inputs:
              since: {type: datetime, default: "31/01/2026"}
            == app/tools/list/handler.ts
            export default () => 1;
            """,
            """
            app/tools/list/config.terse:3:36: error[invalid-default]: the default `31/01/2026` of input `since` is not a valid datetime
              hint: write an RFC 3339 date-time such as "2026-01-31T12:00:00Z" or a date "2026-01-31"
            1 error, 0 warnings
            """),
        argumentSet(
            "an input both optional and required is rejected",
            """
            == app/tools/list/config.terse
            description: Lists.
            inputs:
              limit:
                type: int
                optional: true
                required: true
            == app/tools/list/handler.ts
            export default () => 1;
            """,
            """
            app/tools/list/config.terse:6:15: error[conflicting-required]: input `limit` is marked both `optional: true` and `required: true`
              hint: keep one of them
            1 error, 0 warnings
            """),
        argumentSet(
            "an input name that cannot appear in a placeholder is rejected",
            """
            == app/tools/list/config.terse
            description: Lists.
            inputs:
              item-id: {type: int}
            == app/tools/list/handler.ts
            export default () => 1;
            """,
            """
            app/tools/list/config.terse:3:3: error[invalid-name]: input name `item-id` cannot be used in a placeholder
              hint: start with a letter or `_`; use letters, digits and `_`
            1 error, 0 warnings
            """),
        argumentSet(
            "a handler file that does not exist is an error with a did-you-mean",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            handler: handlr.ts
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:2:10: error[missing-script]: the handler script `handlr.ts` does not exist
              hint: did you mean `handler.ts`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a mapper file that does not exist is an error",
            DB
                + """
                == app/tools/count/config.terse
                description: Counts.
                use: db
                statement: SELECT 1
                mappers:
                  output: shape.ts
                """,
            """
            app/tools/count/config.terse:5:11: error[missing-script]: the output transform script `shape.ts` does not exist
              hint: paths start at the tool directory app/tools/count/
            1 error, 0 warnings
            """),
        argumentSet(
            "an export name that is not an identifier is rejected",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            handler: handler.ts#say-hello
            == app/tools/hello/handler.ts
            export const sayHello = () => 1;
            """,
            """
            app/tools/hello/config.terse:2:10: error[invalid-script-reference]: `handler.ts#say-hello` names the export `say-hello`, which is not a JavaScript identifier
              hint: write `path#exportName`, or just `path` for the default export
            1 error, 0 warnings
            """),
        argumentSet(
            "a handler that is not a script is rejected",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            handler: handler.py
            == app/tools/hello/handler.py
            print("hello")
            """,
            """
            app/tools/hello/config.terse:2:10: error[invalid-script-reference]: the handler `handler.py` is not a script
              hint: scripts end in .ts, .mts, .js, .mjs
            1 error, 0 warnings
            """),
        argumentSet(
            "two files that could both be the input transform are ambiguous",
            DB
                + """
                == app/tools/count/config.terse
                description: Counts.
                use: db
                statement: SELECT 1
                == app/tools/count/input_validator.ts
                export default (p) => p.inputs;
                == app/tools/count/strict_input_validator.ts
                export default (p) => p.inputs;
                """,
            """
            app/tools/count/config.terse:1:1: error[ambiguous-script]: several files could be the input transform by convention: input_validator.ts, strict_input_validator.ts
              hint: name the one to use in `mappers`
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown auth plugin is an error with a did-you-mean",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            auth:
              plugin: apikey
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:11: error[unknown-auth-plugin]: no auth plugin is named `apikey`
              hint: did you mean `api_key`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a custom auth plugin is found in app/plugins",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            auth:
              plugin: bearer
              policy: {issuer: "https://id.example.com"}
            == app/tools/hello/handler.ts
            export default () => 1;
            == app/plugins/bearer.ts
            export default () => true;
            """,
            ""),
        argumentSet(
            "api_key without a value or SVC_API_KEY is a warning",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            auth:
              plugin: api_key
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:11: warning[missing-api-key]: tool `hello` uses `api_key` without `policy.value`, and SVC_API_KEY is not set here
              hint: set `policy: {value: "{{ env.MY_KEY }}"}` or SVC_API_KEY when serving; without a key every call is refused
            0 errors, 1 warning
            """),
        argumentSet(
            "an API key written in the file is a warning; one from the environment is not",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            auth:
              plugin: api_key
              policy: {value: sk-live-123}
            == app/tools/hello/handler.ts
            export default () => 1;
            == app/tools/bye/config.terse
            description: Says bye.
            auth:
              plugin: api_key
              policy: {value: "{{ env.BYE_KEY }}"}
            == app/tools/bye/handler.ts
            export default () => 2;
            """,
            """
            app/tools/hello/config.terse:4:19: warning[literal-secret]: the API key of tool `hello` is written in the file: it would be in the repository and in the built artifact
              hint: write `value: "{{ env.MY_KEY }}"` and set the variable where svc runs (or in .env, kept out of version control), or leave it out and set SVC_API_KEY
            0 errors, 1 warning
            """),
        argumentSet(
            "an auth block without plugin is an error",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            auth:
              policy: {value: secret}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:3: error[missing-field]: `plugin` is missing from the tool `auth`
              hint: add `plugin:` (`allow_all`, `api_key`, `jwt`, or a custom plugin `app/plugins/<name>.ts`)
            1 error, 0 warnings
            """),
        argumentSet(
            "a tool may not be named `search`",
            """
            == app/tools/search/config.terse
            description: Searches.
            == app/tools/search/handler.ts
            export default () => 1;
            """,
            """
            app/tools/search/config.terse:1:1: error[reserved-name]: `search` is the name of the built-in search tool
              hint: rename this tool
            1 error, 0 warnings
            """),
        argumentSet(
            "a tool directory name that is not a valid tool name needs a `name` field",
            """
            == app/tools/say hello/config.terse
            description: Says hello.
            == app/tools/say hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/say hello/config.terse:1:1: error[invalid-name]: the tool has no `name`, and its default name `say hello` does not match ^[A-Za-z0-9_.-]{1,128}$
              hint: add a `name:` field, or rename it (use letters, digits, `_`, `-` and `.` (at most 128))
            1 error, 0 warnings
            """),
        argumentSet(
            "a written tool name must be a valid tool name",
            """
            == app/tools/hello/config.terse
            name: say hello
            description: Says hello.
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:1:7: error[invalid-name]: `name` is `say hello`; it must match ^[A-Za-z0-9_.-]{1,128}$
              hint: use letters, digits, `_`, `-` and `.` (at most 128)
            1 error, 0 warnings
            """),
        argumentSet(
            "two tools with one name are rejected",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            == app/tools/hello/handler.ts
            export default () => 1;
            == app/tools/hello2/config.terse
            name: hello
            description: Says hello again.
            == app/tools/hello2/handler.ts
            export default () => 2;
            """,
            """
            app/tools/hello2/config.terse:1:7: error[duplicate-tool]: tool `hello` is defined twice
              hint: the first definition is at app/tools/hello/config.terse:1:1; rename or remove one
            1 error, 0 warnings
            """),
        argumentSet(
            "result caps must be whole numbers of zero or more",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            max_rows: -1
            max_bytes: 1MB
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:2:11: error[invalid-value]: `max_rows` is -1; it must be at least 0
            app/tools/hello/config.terse:3:12: error[invalid-type]: `max_bytes` must be an integer, found a string
            2 errors, 0 warnings
            """),
        argumentSet(
            "a capped SQL statement reading rows without ORDER BY warns that its pages are unstable",
            DB
                + """
                == app/tools/list/config.terse
                description: Lists items.
                use: db
                statement: |
                  SELECT name, (SELECT max(n) FROM t ORDER BY n) AS top -- ORDER BY in a comment
                  FROM items WHERE note <> 'ORDER BY' ORDER/**/
                == app/tools/ordered/config.terse
                description: Lists items in order.
                use: db
                statement: SELECT name FROM items order  by name
                == app/tools/uncapped/config.terse
                description: Lists every item.
                use: db
                statement: SELECT name FROM items
                max_rows: 0
                max_bytes: 0
                == app/tools/one/config.terse
                description: One value.
                use: db
                statement: SELECT 1
                == app/tools/insert/config.terse
                description: Adds an item.
                use: db
                statement: INSERT INTO items (name) SELECT name FROM staging
                """,
            """
            app/tools/list/config.terse:3:12: warning[unordered-pages]: the statement of tool `list` has no ORDER BY: a capped result keeps whichever rows come first, and the pages read with `cursor` may repeat or skip rows
              hint: order by a unique key, e.g. `ORDER BY id`
            0 errors, 1 warning
            """),
        argumentSet(
            "a timeout of zero seconds is rejected",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            timeout: 0
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:2:10: error[invalid-value]: `timeout` is 0; it must be at least 1
            1 error, 0 warnings
            """),
        argumentSet(
            "a cache ttl written as a duration is the wrong type",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            cache: {enabled: true, ttl: 5m}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:2:29: error[invalid-type]: `ttl` must be an integer, found a string
            1 error, 0 warnings
            """),
        argumentSet(
            "an env placeholder in a tool description is served as written, so it warns",
            """
            == app/tools/hello/config.terse
            description: "Says hello from {{ env.REGION }}."
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:1:14: warning[env-not-substituted]: `{{ env.… }}` is not substituted in `description`; it is served as written
              hint: env placeholders work in connection_string, adapter options, auth policy values and model options
            0 errors, 1 warning
            """),
        argumentSet(
            "a confirm placeholder must name a declared input",
            """
            == app/tools/drop/config.terse
            description: Drops an order.
            confirm: "Drop order {{ inputs.idd }} of {{ input.owner }}?"
            inputs:
              id: {type: int}
            == app/tools/drop/handler.ts
            export default () => 1;
            """,
            """
            app/tools/drop/config.terse:2:10: error[invalid-placeholder]: `{{ input.owner }}` in `confirm` is not an input placeholder
              hint: write `{{ inputs.<name> }}` with the name of a declared input
            app/tools/drop/config.terse:2:10: error[unknown-input]: `confirm` uses `{{ inputs.idd }}`, but the tool has no input `idd`
              hint: did you mean `id`?
            2 errors, 0 warnings
            """),
        argumentSet(
            "an unclosed confirm placeholder and an empty confirm are errors",
            """
            == app/tools/drop/config.terse
            description: Drops an order.
            confirm: "Drop order {{ inputs.id"
            inputs:
              id: {type: int}
            == app/tools/drop/handler.ts
            export default () => 1;
            == app/tools/keep/config.terse
            description: Keeps an order.
            confirm: " "
            == app/tools/keep/handler.ts
            export default () => 1;
            """,
            """
            app/tools/drop/config.terse:2:10: error[invalid-placeholder]: a placeholder in `confirm` opened with `{{` is never closed with `}}`
            app/tools/keep/config.terse:2:10: error[missing-field]: the tool's `confirm` is empty
              hint: write the question to ask, e.g. `confirm: "Delete order {{ inputs.id }}?"`
            2 errors, 0 warnings
            """),
        argumentSet(
            "confirm_fallback is allow or refuse, and means nothing without confirm",
            """
            == app/tools/drop/config.terse
            description: Drops an order.
            confirm: Drop it?
            confirm_fallback: alow
            == app/tools/drop/handler.ts
            export default () => 1;
            == app/tools/keep/config.terse
            description: Keeps an order.
            confirm_fallback: allow
            == app/tools/keep/handler.ts
            export default () => 1;
            """,
            """
            app/tools/drop/config.terse:3:19: error[invalid-confirm-fallback]: `confirm_fallback` is `alow`, which is not supported
              hint: did you mean `allow`?
            app/tools/keep/config.terse:2:19: warning[confirm-fallback-without-confirm]: `confirm_fallback` has no effect: the tool has no `confirm` question
              hint: add `confirm: "…?"`, or remove `confirm_fallback`
            1 error, 1 warning
            """));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }
}
