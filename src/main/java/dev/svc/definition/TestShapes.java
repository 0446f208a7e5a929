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
          optional(
              "claims",
              new FieldType.Document(),
              "The claims of the access token the call carries (`sub`, `scope`, any other"
                  + " claim), as if `server.auth` had verified it: a `jwt` plugin checks its"
                  + " scopes, statements and scripts read the claims; no signature is checked."),
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
          optional(
              "in_memory_sqlite",
              new FieldType.Bool(),
              "Run the cases on a fresh in-memory SQLite database instead of the tool's postgres"
                  + " or mysql adapter (`fixtures` create its tables): no database server needed."),
          optional(
              "fresh_schema",
              new FieldType.Bool(),
              "PostgreSQL: run the suite in a new schema, the whole search_path of the tool's"
                  + " connections (`fixtures` create their tables there), dropped with everything"
                  + " in it after the suite."),
          required(
              "cases",
              new FieldType.MapOf(CASE),
              "The cases, keyed by a name saying what" + " each checks."));

  static final Shape PROMPT_EXPECT =
      Shapes.shape(
          "prompt-expect",
          "What the prompt must render; every expectation given must hold.",
          true,
          optional(
              "messages",
              new FieldType.Value(),
              "The exact messages: a list of `{role, text}` (an image is `{role, image: <MIME"
                  + " type>}`, an embedded resource `{role, resource: <URI>, text}`)."),
          optional(
              "json_path",
              new FieldType.Document(),
              "JSON paths into the messages (`$[1].text`) and the value each must select."),
          optional(
              "error",
              FieldType.text(),
              "The request must fail (a missing required argument, an unknown resource) with a"
                  + " message this regular expression finds."));

  static final Shape PROMPT_CASE =
      Shapes.shape(
          "prompt-test-case",
          "One `prompts/get` of the prompt and what it must render.",
          true,
          optional(
              "arguments", new FieldType.ScalarMap(), "The prompt's arguments (default: none)."),
          required("expect", new FieldType.Object(PROMPT_EXPECT), "What it must render."));

  /** A prompt's {@code <name>.tests.terse}. */
  static final Shape PROMPT_TESTS =
      Shapes.shape(
          "prompt-tests",
          "Tests of the prompt in the file of the same name, run by `svc test`.",
          true,
          required(
              "cases",
              new FieldType.MapOf(PROMPT_CASE),
              "The cases, keyed by a name saying what each checks."));

  static final Shape RESOURCE_EXPECT =
      Shapes.shape(
          "resource-expect",
          "What reading the resource must return; every expectation given must hold.",
          true,
          optional("uri", FieldType.text(), "The URI read (for a template: the expanded URI)."),
          optional("mime_type", FieldType.text(), "The content's MIME type."),
          optional("text", FieldType.text(), "The exact text content."),
          optional(
              "text_matches",
              FieldType.text(),
              "A regular expression the text content must contain a match of."),
          optional(
              "error",
              FieldType.text(),
              "The read must fail (no resource at the URI, a path leaving the folder) with a"
                  + " message this regular expression finds."));

  static final Shape RESOURCE_CASE =
      Shapes.shape(
          "resource-test-case",
          "One `resources/read` and what it must return.",
          true,
          optional(
              "arguments",
              new FieldType.ScalarMap(),
              "A template's variables: the URI read is the template expanded with them."),
          optional(
              "uri",
              FieldType.text(),
              "The URI to read instead (default: the resource's URI, or the expanded template)."),
          required("expect", new FieldType.Object(RESOURCE_EXPECT), "What it must return."));

  /** A resource's or template's {@code tests.terse}. */
  static final Shape RESOURCE_TESTS =
      Shapes.shape(
          "resource-tests",
          "Tests of the resource or template in this folder, run by `svc test`.",
          true,
          required(
              "cases",
              new FieldType.MapOf(RESOURCE_CASE),
              "The cases, keyed by a name saying what each checks."));

  static final Shape SCRIPTED_CALL =
      Shapes.shape(
          "scripted-tool-call",
          "A tool call the scripted model makes.",
          true,
          required("tool", FieldType.text(), "The tool's name."),
          optional("arguments", new FieldType.Document(), "The call's arguments (default: none)."));

  static final Shape MODEL_TURN =
      Shapes.shape(
          "model-turn",
          "One answer of the scripted model: text, tool calls, or both.",
          true,
          optional("text", FieldType.text(), "What the model says."),
          optional(
              "tool_calls",
              new FieldType.ListOf(SCRIPTED_CALL),
              "The tools the model calls in this turn, in order."));

  static final Shape AGENT_EXPECT =
      Shapes.shape(
          "agent-expect",
          "What the agent's run must end with; every expectation given must hold.",
          true,
          optional("answer", FieldType.text(), "The exact final answer (the text of every turn)."),
          optional(
              "answer_matches",
              FieldType.text(),
              "A regular expression the final answer must contain a match of."),
          optional(
              "tool_calls",
              new FieldType.Value(),
              "The tools called, in order: a list of `{tool, arguments}` (without `arguments`, any"
                  + " arguments)."),
          optional(
              "json_path",
              new FieldType.Document(),
              "JSON paths into `{answer, tool_calls: [{tool, arguments, result, failed}]}` and the"
                  + " value each must select."),
          optional(
              "error",
              FieldType.text(),
              "The run must fail (e.g. the steps ran out) with a message this regular expression"
                  + " finds."));

  static final Shape AGENT_CASE =
      Shapes.shape(
          "agent-test-case",
          "One task for the agent, the model's scripted turns, and what the run must end with.",
          true,
          required("message", FieldType.text(), "The user's message."),
          optional(
              "headers",
              new FieldType.ScalarMap(),
              "HTTP headers of the request that starts the task (they go with every tool call)."),
          required(
              "model",
              new FieldType.ListOf(MODEL_TURN),
              "The model's answers, in order: one per model call the agent makes. No network."),
          required("expect", new FieldType.Object(AGENT_EXPECT), "What the run must end with."));

  /** An agent's {@code tests.terse}. */
  static final Shape AGENT_TESTS =
      Shapes.shape(
          "agent-tests",
          "Tests of the agent in this folder, run by `svc test` with a scripted model.",
          true,
          optional(
              "fixtures",
              new FieldType.Document(),
              "SQL files to run before the cases, by adapter: `{shop: [fixtures.sql]}` (paths"
                  + " relative to this file)."),
          required(
              "cases",
              new FieldType.MapOf(AGENT_CASE),
              "The cases, keyed by a name saying what each checks."));
}
