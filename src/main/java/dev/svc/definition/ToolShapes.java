package dev.svc.definition;

import static dev.svc.definition.Field.optional;
import static dev.svc.definition.Field.required;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A tool's {@code config.terse}: its backend, inputs, transforms, auth, cache, result caps,
 * read-only mode, annotations, and declared input and output schemas. Part of {@link Shapes}, kept
 * apart for its length.
 */
final class ToolShapes {
  private ToolShapes() {}

  static final Shape INPUT =
      Shapes.shape(
          "input",
          "A typed tool input.",
          true,
          optional(
                  "type",
                  new FieldType.Text(Optional.empty(), Shapes.INPUT_TYPES),
                  "`string` (default), `int`, `float`, `boolean` or `datetime`.")
              .reportedAs("invalid-input-type"),
          optional("description", FieldType.text(), "What the input is for; shown to models."),
          optional("optional", new FieldType.Bool(), "The caller may leave it out."),
          optional(
              "required",
              new FieldType.Bool(),
              "The caller must supply it (the default without `default`)."),
          optional(
              "default",
              FieldType.text(),
              "Value used when the caller leaves it out, written as a string."),
          optional(
              "redact",
              new FieldType.Bool(),
              "Hide the value in audit lines (default true); `false` shows it."),
          optional(
              "header",
              FieldType.text(),
              "HTTP header `Mcp-Param-<header>` that 2026-07-28 clients copy the value into"
                  + " (MCP `x-mcp-header`); not on `float` inputs."));

  static final Shape MAPPERS =
      Shapes.shape(
          "mappers",
          "Input and output transform scripts.",
          true,
          optional("input", FieldType.text(), "Input transform script, `path` or `path#export`."),
          optional(
              "output", FieldType.text(), "Output transform script, `path` or `path#export`."));

  static final Shape AUTH =
      Shapes.shape(
          "auth",
          "Authentication of this tool.",
          true,
          required(
              "plugin",
              FieldType.text(),
              "`allow_all`, `api_key`, `jwt`, or a custom plugin `app/plugins/<name>.ts`."),
          optional(
              "policy",
              new FieldType.ScalarMap(
                  inOrder(
                      "value",
                      "`api_key`: the expected key (else env `SVC_API_KEY`).",
                      "issuer",
                      "`jwt`: the tokens' `iss`, exactly; required without `server.auth`.",
                      "audience",
                      "`jwt`: a value the tokens' `aud` must contain; required without"
                          + " `server.auth`.",
                      "scopes",
                      "`jwt`: scopes the token must carry, separated by spaces.",
                      "jwks_uri",
                      "`jwt`: the issuer's keys, when not discovered from the issuer.")),
              "Plugin parameters; `{{ env.NAME }}` allowed (e.g. `value` for `api_key`; `issuer`,"
                  + " `audience`, `scopes`, `jwks_uri` for `jwt`)."));

  static final Shape SESSION =
      Shapes.shape(
          "session",
          "PostgreSQL settings made for each call, in the transaction of its statement (for"
              + " row-level security).",
          true,
          optional(
              "settings",
              new FieldType.ScalarMap(),
              "Setting name → literal text or `{{ auth.claims.<name> }}`, applied with"
                  + " `set_config(name, value, true)`, e.g. `app.user_id: \"{{ auth.claims.sub }}\"`."),
          optional(
              "role",
              FieldType.text(),
              "Role the statement runs as (`SET LOCAL ROLE`): literal or `{{ auth.claims.<name>"
                  + " }}`; must be one of `allowed_roles`."),
          optional(
              "allowed_roles",
              new FieldType.TextList(),
              "The roles `role` may take; required when `role` comes from a claim."));

  static final Shape ANNOTATIONS =
      Shapes.shape(
          "annotations",
          "MCP tool annotations: hints for clients, each overriding what svc derives.",
          true,
          optional("title", FieldType.text(), "Human-readable title of the tool."),
          optional(
              "read_only_hint",
              new FieldType.Bool(),
              "The tool does not change its environment (derived: `read_only`, or a statement"
                  + " that only reads)."),
          optional(
              "destructive_hint",
              new FieldType.Bool(),
              "A write may change or delete what exists (false: it only adds)."),
          optional(
              "idempotent_hint",
              new FieldType.Bool(),
              "Calling again with the same inputs has no further effect."),
          optional(
              "open_world_hint",
              new FieldType.Bool(),
              "The tool reaches beyond a closed domain (derived false for database tools)."));

  /** A tool's {@code config.terse}. */
  static final Shape TOOL =
      Shapes.shape(
          "tool",
          "A callable tool: a bound statement on an adapter, or a TypeScript handler.",
          true,
          optional(
                  "name",
                  FieldType.pattern(Shapes.TOOL_NAME),
                  "Tool name; defaults to the directory name.")
              .reportedAs("invalid-name"),
          required("description", FieldType.text(), "What the tool does; shown to models."),
          optional("use", FieldType.text(), "Adapter the statement runs on."),
          optional(
              "statement",
              FieldType.text(),
              "SQL, MongoDB JSON or Redis command with `{{ inputs.name }}` and `{{ auth.claims.name }}`"
                  + " placeholders (always bound)."),
          optional("handler", FieldType.text(), "TypeScript handler, `path` or `path#export`."),
          optional("mappers", new FieldType.Object(MAPPERS), "Input and output transforms."),
          optional("inputs", new FieldType.MapOf(INPUT), "Typed inputs keyed by name."),
          optional(
                  "input_schema",
                  new FieldType.Document(),
                  "JSON Schema 2020-12 (in YAML) of the tool's arguments, instead of `inputs`; its root"
                      + " is `type: object`.")
              .reportedAs("invalid-input-schema"),
          optional("auth", new FieldType.Object(AUTH), "Authentication plugin and policy."),
          optional("cache", new FieldType.Object(Shapes.cache(false)), "Per-tool cache settings."),
          optional(
              "timeout", FieldType.positive(), "Deadline of one call in seconds (default 30)."),
          optional(
              "rate_limit",
              new FieldType.Object(Shapes.rateLimit(false)),
              "How often one caller may call this tool; overrides `tools.rate_limit`."),
          Shapes.maxRows("Most rows one call returns; overrides `tools.max_rows` (0: no cap)."),
          Shapes.maxBytes(
              "Most bytes of JSON one call returns; overrides `tools.max_bytes` (0: no cap)."),
          optional(
              "read_only",
              new FieldType.Bool(),
              "Run the statement so that the database refuses writes (default false)."),
          optional(
              "annotations",
              new FieldType.Object(ANNOTATIONS),
              "MCP tool annotations overriding the derived ones."),
          optional(
              "output_schema",
              new FieldType.Document(),
              "JSON Schema (in YAML) of the tool's `structuredContent`; its root is `type: object`."),
          optional(
              "confirm",
              FieldType.text(),
              "Ask the user before the tool runs (MCP elicitation), e.g. `Delete order {{ inputs.id"
                  + " }}?`; declined or cancelled, the tool does not run."),
          optional(
                  "confirm_fallback",
                  new FieldType.Text(Optional.empty(), Shapes.CONFIRM_FALLBACKS),
                  "When the client cannot be asked (no elicitation capability): `refuse` the call"
                      + " (default) or `allow` it without asking.")
              .reportedAs("invalid-confirm-fallback"),
          optional(
              "session",
              new FieldType.Object(SESSION),
              "PostgreSQL settings and role for each call, from the caller's verified token (row-level"
                  + " security)."));

  /** Name → description pairs, in the order written (schemas are files: their order must hold). */
  static Map<String, String> inOrder(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i + 1 < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return map;
  }
}
