package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.svc.model.Model;
import dev.svc.model.Tool;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Rules of a tool's `input_schema`, each pinned to its output. */
class InputSchemaDiagnosticsTest {
  @TempDir Path dir;

  private static final String HANDLER =
      """
      == app/tools/t/handler.ts
      export default ({ inputs }: { inputs: Record<string, unknown> }) => inputs;
      """;

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "an input schema must be a mapping",
            """
            == app/tools/t/config.terse
            description: T.
            input_schema: [object]
            """
                + HANDLER,
            """
            app/tools/t/config.terse:2:15: error[invalid-input-schema]: `input_schema` must be a mapping, found a list
            1 error, 0 warnings
            """),
        argumentSet(
            "an input schema needs a type",
            """
            == app/tools/t/config.terse
            description: T.
            input_schema:
              properties: {a: {type: string}}
            """
                + HANDLER,
            """
            app/tools/t/config.terse:3:3: error[invalid-input-schema]: the `input_schema` has no `type`; MCP requires an object schema at its root
              hint: add `type: object` and describe the arguments under `properties:`
            1 error, 0 warnings
            """),
        argumentSet(
            "an input schema's root must be an object schema",
            """
            == app/tools/t/config.terse
            description: T.
            input_schema:
              type: array
            """
                + HANDLER,
            """
            app/tools/t/config.terse:3:9: error[invalid-input-schema]: the `input_schema` root has `type` `array`; MCP requires `object` (a tool's arguments are always a JSON object)
              hint: write `type: object`
            1 error, 0 warnings
            """),
        argumentSet(
            "a tool has inputs or an input schema, not both",
            """
            == app/tools/t/config.terse
            description: T.
            inputs:
              a: {type: string}
            input_schema:
              type: object
              properties: {a: {type: string}}
            """
                + HANDLER,
            """
            app/tools/t/config.terse:5:3: error[conflicting-inputs]: the tool declares both `inputs` and `input_schema`; its arguments are described by one or the other
              hint: keep `inputs` for typed inputs svc converts, or move them into `input_schema` as `properties` (the handler then gets the arguments as sent)
            1 error, 0 warnings
            """),
        argumentSet(
            "only the 2020-12 dialect is accepted",
            """
            == app/tools/t/config.terse
            description: T.
            input_schema:
              $schema: http://json-schema.org/draft-07/schema#
              type: object
            """
                + HANDLER,
            """
            app/tools/t/config.terse:3:12: error[invalid-input-schema]: svc checks arguments with JSON Schema 2020-12; `$schema` may only name it
              hint: write `$schema: https://json-schema.org/draft/2020-12/schema`, or leave `$schema` out (2020-12 is MCP's default)
            1 error, 0 warnings
            """),
        argumentSet(
            "a reference to another document is refused: svc never fetches schemas",
            """
            == app/tools/t/config.terse
            description: T.
            input_schema:
              type: object
              properties:
                a: {$ref: "https://example.com/schemas/a.json"}
                b: {$ref: "b.json#/$defs/x"}
                c: {const: {$ref: "https://example.com/data-not-a-reference"}}
            """
                + HANDLER,
            """
            app/tools/t/config.terse:5:15: error[external-schema-ref]: `https://example.com/schemas/a.json` points outside the `input_schema`; svc never fetches schemas
              hint: copy the schema it points to under `$defs:` and refer to it as `#/$defs/<name>`
            app/tools/t/config.terse:6:15: error[external-schema-ref]: `b.json#/$defs/x` points outside the `input_schema`; svc never fetches schemas
              hint: copy the schema it points to under `$defs:` and refer to it as `#/$defs/<name>`
            2 errors, 0 warnings
            """),
        argumentSet(
            "a reference inside the schema must point at something",
            """
            == app/tools/t/config.terse
            description: T.
            input_schema:
              type: object
              $defs:
                address: {type: object}
              properties:
                a: {$ref: "#/$defs/adress"}
                b: {$ref: "#home"}
            """
                + HANDLER,
            """
            app/tools/t/config.terse:7:15: error[invalid-input-schema]: `#/$defs/adress` points at nothing in the `input_schema`
              hint: a JSON Pointer from the schema's root, e.g. `#/$defs/address`
            app/tools/t/config.terse:8:15: error[invalid-input-schema]: `#home` points at nothing in the `input_schema`
              hint: an `$anchor` of that name, or a JSON Pointer such as `#/$defs/address`
            2 errors, 0 warnings
            """),
        argumentSet(
            "the schema must be valid against the 2020-12 metaschema",
            """
            == app/tools/t/config.terse
            description: T.
            input_schema:
              type: object
              properties:
                a: {type: strin}
                b: {type: integer, minimum: low}
              required: a
            """
                + HANDLER,
            """
            app/tools/t/config.terse:5:15: error[invalid-input-schema]: the `input_schema` is not valid JSON Schema 2020-12: `/properties/a/type`: does not have a value in the enumeration ["array", "boolean", "integer", "null", "number", "object", "string"]
              hint: see https://json-schema.org/draft/2020-12/json-schema-validation for each keyword's value
            app/tools/t/config.terse:6:33: error[invalid-input-schema]: the `input_schema` is not valid JSON Schema 2020-12: `/properties/b/minimum`: string found, number expected
              hint: see https://json-schema.org/draft/2020-12/json-schema-validation for each keyword's value
            app/tools/t/config.terse:7:13: error[invalid-input-schema]: the `input_schema` is not valid JSON Schema 2020-12: `/required`: string found, array expected
              hint: see https://json-schema.org/draft/2020-12/json-schema-validation for each keyword's value
            3 errors, 0 warnings
            """),
        argumentSet(
            "a pattern must be a regular expression",
            """
            == app/tools/t/config.terse
            description: T.
            input_schema:
              type: object
              properties:
                a: {type: string, pattern: "[a-"}
            """
                + HANDLER,
            """
            app/tools/t/config.terse:5:32: error[invalid-input-schema]: `[a-` in the `input_schema` is not a regular expression: Illegal character range near index 3
              hint: quote the pattern, and escape a literal `[`, `(` or `\\` with a backslash
            1 error, 0 warnings
            """),
        argumentSet(
            "a number JSON cannot hold is reported where it is",
            """
            == app/tools/t/config.terse
            description: T.
            input_schema:
              type: object
              properties:
                n: {type: number, maximum: .inf}
            """
                + HANDLER,
            """
            app/tools/t/config.terse:5:32: error[invalid-input-schema]: `.inf` in the `input_schema` is not a JSON number
              hint: write a finite number, or quote it to make it a string
            1 error, 0 warnings
            """),
        argumentSet(
            "a statement's placeholders name properties of the input schema",
            """
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/t/config.terse
            description: T.
            use: db
            statement: SELECT {{ inputs.nmae }} AS name
            input_schema:
              type: object
              properties:
                name: {type: string}
            """,
            """
            app/tools/t/config.terse:3:12: error[unknown-input]: the statement uses `{{ inputs.nmae }}`, but the tool has no property `nmae` in its `input_schema`
              hint: did you mean `name`?
            1 error, 0 warnings
            """));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }

  @Test
  void aSchemaWithTheWholeOf2020_12CompilesToItsJsonAsWritten() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: p
            == app/tools/t/config.terse
            description: T.
            input_schema:
              $schema: https://json-schema.org/draft/2020-12/schema
              type: object
              $defs:
                address:
                  $anchor: addressDef
                  type: object
                  properties: {street: {type: string}}
                nested: {$id: "https://example.com/nested", type: string}
              properties:
                home: {$ref: "#addressDef"}
                work: {$ref: "#/$defs/address"}
                code: {$ref: "https://example.com/nested"}
                tag: {type: string, pattern: "^[a-z]+$"}
              patternProperties:
                "^x-": {type: string}
              allOf:
                - anyOf: [{required: [home]}, {required: [work]}]
              if: {required: [tag]}
              then: {required: [code]}
              else: {}
              additionalProperties: false
            """
                + HANDLER);
    Tool tool = model.tool("t").orElseThrow();
    assertThat(tool.inputSchema())
        .contains(
            "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\","
                + "\"$defs\":{\"address\":{\"$anchor\":\"addressDef\",\"type\":\"object\","
                + "\"properties\":{\"street\":{\"type\":\"string\"}}},"
                + "\"nested\":{\"$id\":\"https://example.com/nested\",\"type\":\"string\"}},"
                + "\"properties\":{\"home\":{\"$ref\":\"#addressDef\"},"
                + "\"work\":{\"$ref\":\"#/$defs/address\"},"
                + "\"code\":{\"$ref\":\"https://example.com/nested\"},"
                + "\"tag\":{\"type\":\"string\",\"pattern\":\"^[a-z]+$\"}},"
                + "\"patternProperties\":{\"^x-\":{\"type\":\"string\"}},"
                + "\"allOf\":[{\"anyOf\":[{\"required\":[\"home\"]},{\"required\":[\"work\"]}]}],"
                + "\"if\":{\"required\":[\"tag\"]},\"then\":{\"required\":[\"code\"]},"
                + "\"else\":{},\"additionalProperties\":false}");
    assertThat(tool.inputs()).isEmpty();
  }
}
