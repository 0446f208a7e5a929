package dev.svc.definition;

import static dev.svc.definition.Field.optional;
import static dev.svc.definition.Field.required;

/** The fields of a test file ({@code tests.terse} beside what it tests; docs/testing.md). */
final class TestShapes {
  private TestShapes() {}

  static final Shape EXPECT =
      Shapes.shape(
          "expect",
          "What the call must return; every expectation given must hold.",
          true,
          optional(
              "result",
              new FieldType.Value(),
              "The exact result: the payload as JSON (for a statement, its list of rows)."),
          optional(
              "rows_contain",
              new FieldType.Value(),
              "Rows the result must contain: each one matches a row holding at least its fields."),
          optional(
              "row_count",
              new FieldType.Int(0, Integer.MAX_VALUE),
              "How many rows (items of a list result) the result holds."),
          optional(
              "json_path",
              new FieldType.Document(),
              "JSON paths into the result (`$.a.b`, `$[0].name`, `$.items[2]`) and the value each"
                  + " must select."),
          optional(
              "error",
              FieldType.text(),
              "The call must fail (`isError`) with a message this regular expression finds; `\"\"`"
                  + " accepts any message."),
          optional(
              "truncated",
              new FieldType.Bool(),
              "Whether a cap (`max_rows`, `max_bytes`) must have cut the result."));

  static final Shape CASE =
      Shapes.shape(
          "test-case",
          "One call of the tool and what it must return.",
          true,
          optional(
              "inputs",
              new FieldType.Document(),
              "The call's arguments, as an MCP client sends them (default: none)."),
          optional(
              "headers",
              new FieldType.ScalarMap(),
              "HTTP headers of the caller (e.g. `X-Api-Key`), for auth plugins and `header:`"
                  + " inputs."),
          required("expect", new FieldType.Object(EXPECT), "What the call must return."));

  /** A tool's {@code tests.terse}. */
  static final Shape TESTS =
      Shapes.shape(
          "tests",
          "Tests of a tool, run by `svc test`; each case calls the tool as an MCP client would.",
          true,
          optional(
              "fixtures",
              new FieldType.TextList(),
              "SQL files (relative to this file) run on the tool's adapter before the cases."),
          required(
              "cases",
              new FieldType.MapOf(CASE),
              "The cases, keyed by a name saying what" + " each checks."));
}
