package dev.svc.definition;

import static dev.svc.definition.Field.optional;
import static dev.svc.definition.Field.required;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every field of every definition file, in one place (the root file's {@code server} section, the
 * longest, is in {@link ServerShapes}). The reader checks files against these shapes and the editor
 * schemas under {@code schema/} are generated from them.
 *
 * <p>{@link #CONNECTORS} and {@link #INPUT_TYPES} list the wire names of {@code
 * model.ConnectorKind} and {@code model.InputType}; this package may not import {@code model}, so
 * {@code ShapesTest} pins them to each other.
 */
public final class Shapes {
  private Shapes() {}

  /** Pattern of service and agent names. */
  public static final String LOWER_NAME = "^[a-z][a-z0-9_-]*$";

  /** Pattern of adapter names. */
  public static final String ADAPTER_NAME = "^[a-zA-Z][a-zA-Z0-9_-]*$";

  /** Pattern of tool names: what MCP clients accept. */
  public static final String TOOL_NAME = "^[A-Za-z0-9_.-]{1,128}$";

  /** Pattern of input and argument names: usable as a placeholder. */
  public static final String PARAMETER_NAME = "^[A-Za-z_][A-Za-z0-9_]*$";

  public static final List<String> CONNECTORS =
      List.of("postgres", "mysql", "sqlite", "mongodb", "redis");
  public static final List<String> INPUT_TYPES =
      List.of("string", "int", "float", "boolean", "datetime");
  public static final List<String> CONFIRM_FALLBACKS = List.of("refuse", "allow");
  public static final List<String> ROOT_ACCESS_MODES =
      List.of("allow_all", "allow_none", "allow_list");
  public static final List<String> AGENT_ACCESS_MODES =
      List.of("inherit", "allow_all", "allow_none", "allow_list");

  static final Shape DIRECTORY =
      shape(
          "directory",
          "Where definitions of this kind are discovered.",
          false,
          optional("directory", FieldType.text(), "Directory relative to `root`."));

  /**
   * A hint saying what {@code pattern} allows, for names that break it.
   *
   * @param pattern one of the name patterns above
   */
  public static String patternHint(String pattern) {
    return switch (pattern) {
      case LOWER_NAME -> "start with a lower-case letter; use a-z, 0-9, `_` and `-`";
      case ADAPTER_NAME -> "start with a letter; use letters, digits, `_` and `-`";
      case TOOL_NAME -> "use letters, digits, `_`, `-` and `.` (at most 128)";
      case PARAMETER_NAME -> "start with a letter or `_`; use letters, digits and `_`";
      default -> "change it to match " + pattern;
    };
  }

  /**
   * A cache block; {@code root} is the global one, lenient like the rest of the root file (an
   * unknown key there is a warning).
   */
  static Shape cache(boolean root) {
    List<Field> fields = new ArrayList<>();
    fields.add(optional("enabled", new FieldType.Bool(), "Whether results are cached."));
    fields.add(
        optional(
            "ttl", FieldType.positive(), "Lifetime of a cached result in seconds (default 120)."));
    if (root) {
      fields.add(
          optional(
              "store",
              FieldType.text(),
              "A redis adapter whose database holds the cached results, so that every instance"
                  + " naming it shares them (default: each instance caches in its own memory)."));
    }
    return new Shape(
        root ? "root-cache" : "cache",
        "Result cache. Per-tool fields override only what they set.",
        fields,
        !root);
  }

  static final Shape TOOLS_SECTION =
      shape(
          "tools-section",
          "Tool discovery, cache and search settings.",
          false,
          optional(
              "directory",
              FieldType.text(),
              "Tool directory relative to `root` (default `tools`)."),
          optional(
              "cache", new FieldType.Object(cache(true)), "Global result cache of every tool."),
          optional(
              "search",
              new FieldType.Object(
                  shape(
                      "search",
                      "The built-in `search` tool.",
                      false,
                      optional(
                          "limit",
                          FieldType.positive(),
                          "Most results one search returns (default 10)."))),
              "The built-in `search` tool."),
          optional(
              "rate_limit",
              new FieldType.Object(rateLimit(true)),
              "How often one caller may call each tool (default: no limit)."),
          maxRows("Most rows one tool call returns (default 1000; 0: no cap)."),
          maxBytes(
              "Most bytes of JSON one tool call returns (default 1048576, 1 MiB; 0: no cap)."));

  /**
   * A {@code rate_limit} block; {@code root} is the global one, lenient like the rest of the root
   * file (an unknown key there is a warning).
   */
  static Shape rateLimit(boolean root) {
    List<Field> fields = new ArrayList<>();
    fields.add(
        optional(
            "enabled",
            new FieldType.Bool(),
            root
                ? "Whether the limit applies (default true)."
                : "`false` exempts this tool from `tools.rate_limit` (default true)."));
    fields.add(
        optional("requests", FieldType.positive(), "Most calls in one window (at least 1).")
            .reportedAs("invalid-rate-limit"));
    fields.add(
        optional(
                "per",
                new FieldType.IntOrText(),
                "The window: seconds, or a number with `ms`, `s`, `m` or `h` (default `60s`).")
            .reportedAs("invalid-rate-limit"));
    if (root) {
      fields.add(
          optional(
              "store",
              FieldType.text(),
              "A redis adapter whose database holds the counters, so that every instance naming"
                  + " it shares them (default: each instance counts in its own memory)."));
    }
    return new Shape(
        root ? "root-rate-limit" : "rate-limit",
        root
            ? "Calls one caller (principal) may make to each tool per window."
            : "Calls one caller (principal) may make to this tool per window; overrides what it"
                + " sets of `tools.rate_limit`.",
        fields,
        !root);
  }

  /** {@code max_rows}, global or per tool (docs/results.md). */
  static Field maxRows(String description) {
    return optional("max_rows", new FieldType.Int(0, Integer.MAX_VALUE), description);
  }

  /** {@code max_bytes}, global or per tool (docs/results.md). */
  static Field maxBytes(String description) {
    return optional("max_bytes", new FieldType.Int(0, Integer.MAX_VALUE), description);
  }

  static Shape toolAccess(boolean root) {
    List<String> modes = root ? ROOT_ACCESS_MODES : AGENT_ACCESS_MODES;
    return shape(
        root ? "root-tool-access" : "tool-access",
        root
            ? "Default tool access of every agent whose own mode is `inherit`."
            : "Which tools this agent may call.",
        !root,
        optional(
                "mode",
                new FieldType.Text(
                    Optional.empty(),
                    modes,
                    root
                        ? List.of(
                            new FieldType.Misplaced(
                                "inherit",
                                "inherit-at-root",
                                "`inherit` is only valid on agents: the root sets what they inherit",
                                "use `allow_all`, `allow_none` or `allow_list` here"))
                        : List.of()),
                root
                    ? "`allow_all`, `allow_none` or `allow_list` (default `allow_all`)."
                    : "`inherit` (default), `allow_all`, `allow_none` or `allow_list`.")
            .reportedAs("invalid-tool-access"),
        optional(
            "tools", new FieldType.TextList(), "Tool names; required when mode is `allow_list`."));
  }

  static final Shape PUSH_NOTIFICATIONS =
      networks(
          "push-notifications",
          "Where A2A push notifications may be sent besides public addresses.");

  static final Shape SCRIPT_FETCH =
      networks(
          "script-fetch",
          "Where scripts' `fetch` may connect besides public addresses (and every redirect it"
              + " follows).");

  static final Shape SCRIPTS_SECTION =
      shape(
          "scripts-section",
          "Settings of the TypeScript handlers, transforms and auth plugins.",
          false,
          optional(
              "fetch",
              new FieldType.Object(SCRIPT_FETCH),
              "Where scripts' `fetch` may connect besides public addresses (default: public"
                  + " addresses only)."));

  /** {@code agents.push_notifications} and {@code scripts.fetch}: the same two fields. */
  private static Shape networks(String name, String description) {
    return shape(
        name,
        description,
        false,
        optional(
            "allow_private_networks",
            new FieldType.Bool(),
            "Also loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), CGNAT (100.64/10)"
                + " and link-local addresses; never cloud metadata ones (default false)."),
        optional(
            "allowed_networks",
            new FieldType.TextList(),
            "Networks (CIDR, e.g. `10.20.0.0/16`) or addresses allowed whatever their kind."));
  }

  static final Shape TASKS =
      shape(
          "tasks",
          "Where A2A tasks live: in memory (the default) or in a database several instances share.",
          false,
          optional(
              "store",
              FieldType.text(),
              "An adapter (postgres or redis) whose database holds the tasks, their events and push"
                  + " configs, shared by every instance that names it."),
          optional(
              "lease_seconds",
              new FieldType.Int(1, 3600),
              "With `store`: after this long without a renewal from the instance running a task,"
                  + " another instance marks it failed (default 30)."),
          optional(
              "retention_hours",
              new FieldType.Int(1, 87_600),
              "How long finished tasks are kept (default 24)."),
          optional(
              "max_running",
              new FieldType.Int(1, 10_000),
              "How many tasks one instance runs at once, each with its model call (default 256)."),
          optional(
              "max_waiting",
              new FieldType.Int(0, 100_000),
              "How many more tasks may wait, submitted, for a turn to run (default 1024); a task"
                  + " past both is refused with TOO_MANY_TASKS."));

  static final Shape AGENTS_SECTION =
      shape(
          "agents-section",
          "Agent discovery, default tool access, push notifications and the task store.",
          false,
          optional(
              "directory",
              FieldType.text(),
              "Agent directory relative to `root` (default `agents`)."),
          optional("tool_access", new FieldType.Object(toolAccess(true)), "Default tool access."),
          optional(
              "push_notifications",
              new FieldType.Object(PUSH_NOTIFICATIONS),
              "Where A2A push notifications may be sent besides public addresses."),
          optional("tasks", new FieldType.Object(TASKS), "Where A2A tasks live."));

  static final Shape BUILD =
      shape(
          "build",
          "Build output settings.",
          false,
          optional("out", FieldType.text(), "Output directory of `svc build` (default `dist`)."),
          optional("out_dir", FieldType.text(), "Same as `out`."),
          optional(
              "clean_dir", new FieldType.Bool(), "Remove the output directory before building."));

  /** The fields every argument has, of a prompt or a resource template. */
  private static Field[] argumentFields(Field... more) {
    List<Field> fields =
        new ArrayList<>(
            List.of(
                optional("title", FieldType.text(), "Human-readable title."),
                optional("description", FieldType.text(), "What the argument is for."),
                optional("required", new FieldType.Bool(), "Whether the caller must supply it."),
                optional(
                    "completion",
                    new FieldType.TextList(),
                    "Values offered by `completion/complete` (prefix match, case-insensitive).")));
    fields.addAll(List.of(more));
    return fields.toArray(Field[]::new);
  }

  static final Shape ARGUMENT =
      shape("argument", "An argument of a resource template.", true, argumentFields());

  /** A prompt argument: the fields of {@link #ARGUMENT} and a {@code default}. */
  static final Shape PROMPT_ARGUMENT =
      shape(
          "prompt-argument",
          "An argument of a prompt.",
          true,
          argumentFields(
              optional(
                  "default",
                  FieldType.text(),
                  "Text used when the caller sends no value, written as a string; only for"
                      + " optional arguments.")));

  static final Shape MESSAGE =
      shape(
          "message",
          "One prompt message: a role and exactly one of `text`, `image` or `resource`.",
          true,
          required(
                  "role",
                  FieldType.choice("user", "assistant", "system"),
                  "`user`, `assistant` or `system`.")
              .reportedAs("invalid-role"),
          optional(
              "text",
              FieldType.text(),
              "Message text; `{{ argument }}` placeholders are filled in."),
          optional(
              "image",
              FieldType.text(),
              "Image file, relative to the prompt file's folder; embedded by `svc build`."),
          optional(
              "mime_type",
              FieldType.text(),
              "MIME type of `image`; else inferred from the file extension."),
          optional(
              "resource",
              FieldType.text(),
              "URI of a resource of the project, sent as an embedded resource; `{{ argument }}` placeholders are filled in."));

  /**
   * A prompt file under {@code app/prompts/} or an element of the root's inline {@code prompts}.
   */
  public static final Shape PROMPT =
      shape(
          "prompt",
          "A reusable message template served by MCP `prompts/get`.",
          true,
          optional("name", FieldType.text(), "Prompt name; defaults to the file name.")
              .reportedAs("invalid-name"),
          optional("title", FieldType.text(), "Human-readable title."),
          optional("description", FieldType.text(), "What the prompt is for."),
          optional("arguments", new FieldType.MapOf(PROMPT_ARGUMENT), "Arguments keyed by name."),
          required("messages", new FieldType.ListOf(MESSAGE), "Messages in order; at least one."));

  /** A resource or resource template folder's {@code config.terse} or an inline element. */
  public static final Shape RESOURCE =
      shape(
          "resource",
          "Read-only context served by MCP: concrete (`uri`) or a template (`uri_template`).",
          true,
          optional("name", FieldType.text(), "Resource name."),
          optional("title", FieldType.text(), "Human-readable title."),
          optional("description", FieldType.text(), "What the resource holds."),
          optional(
              "mime_type", FieldType.text(), "MIME type; else inferred from the file extension."),
          optional("uri", FieldType.text(), "URI of a concrete resource."),
          optional("text", FieldType.text(), "Inline content of a concrete resource."),
          optional(
              "file",
              FieldType.text(),
              "Content file of a concrete resource, relative to its folder."),
          optional(
              "uri_template", FieldType.text(), "RFC 6570 URI template, e.g. `docs://{name}`."),
          optional(
              "text_template",
              FieldType.text(),
              "Inline template with `{{ argument }}` placeholders."),
          optional(
              "file_template",
              FieldType.text(),
              "Content file of a template; its path may contain `{{ argument }}` placeholders."),
          optional(
              "arguments", new FieldType.MapOf(ARGUMENT), "Template arguments keyed by name."));

  /** The root configuration file {@code .svc}. */
  public static final Shape ROOT =
      shape(
          "root",
          "Root configuration of an svc project (`.svc`).",
          false,
          required(
                  "name",
                  FieldType.pattern(LOWER_NAME),
                  "Service id: lower-case letters, digits, `_` and `-`.")
              .reportedAs("invalid-name"),
          optional("version", FieldType.text(), "Version of the service."),
          optional("root", FieldType.text(), "Base directory of discovery (default `app`)."),
          optional("tools", new FieldType.Object(TOOLS_SECTION), "Tool settings."),
          optional(
              "adapters",
              new FieldType.Object(DIRECTORY),
              "Adapter discovery (default `adapters`)."),
          optional(
              "prompts",
              new FieldType.ObjectOrList(DIRECTORY, PROMPT),
              "Either `{directory}` (default `prompts`) or a list of inline prompts."),
          optional(
              "resources",
              new FieldType.ObjectOrList(DIRECTORY, RESOURCE),
              "Either `{directory}` (default `resources`) or a list of inline resources."),
          optional(
              "resource_templates", new FieldType.ListOf(RESOURCE), "Inline resource templates."),
          optional("agents", new FieldType.Object(AGENTS_SECTION), "Agent settings."),
          optional(
              "scripts",
              new FieldType.Object(SCRIPTS_SECTION),
              "Script settings: where `fetch` may connect."),
          optional("server", new FieldType.Object(ServerShapes.SERVER), "HTTP server settings."),
          optional("build", new FieldType.Object(BUILD), "`svc build` settings."));

  /** An adapter file under {@code app/adapters/}. */
  public static final Shape ADAPTER =
      shape(
          "adapter",
          "A named database connection used by tools.",
          true,
          optional(
                  "name",
                  FieldType.pattern(ADAPTER_NAME),
                  "Adapter name; defaults to the file name.")
              .reportedAs("invalid-name"),
          required(
                  "connector",
                  new FieldType.Text(Optional.empty(), CONNECTORS),
                  "`postgres`, `mysql`, `sqlite`, `mongodb` or `redis`.")
              .reportedAs("unknown-connector"),
          required(
              "connection_string",
              FieldType.text(),
              "Connection string; `{{ env.NAME }}` placeholders are filled in at start."),
          optional(
              "options",
              new FieldType.ScalarMap(OptionNames.CONNECTOR),
              "Connector options (values are kept as text; `{{ env.NAME }}` allowed); other"
                  + " names are passed to the driver."));

  /** A tool's {@code config.terse} ({@link ToolShapes}). */
  public static final Shape TOOL = ToolShapes.TOOL;

  static final Shape MODEL =
      shape(
          "model",
          "The model behind an agent.",
          true,
          required(
              "provider",
              FieldType.text(),
              "`gemini` (`google_ai_studio`), `vertex` (`vertex_ai`) or `openai_compatible` (`openai`)."),
          required("model", FieldType.text(), "Provider-specific model name."),
          optional(
              "options",
              new FieldType.ScalarMap(OptionNames.MODEL),
              "Provider options; other names (`temperature`, `max_tokens`, …) are generation"
                  + " parameters passed to the model."));

  /** An agent's {@code config.terse}. */
  public static final Shape AGENT =
      shape(
          "agent",
          "A model-backed assistant served over A2A at `/agent/{name}`.",
          true,
          optional(
                  "name",
                  FieldType.pattern(LOWER_NAME),
                  "Agent name; defaults to the directory name.")
              .reportedAs("invalid-name"),
          optional("description", FieldType.text(), "What the agent does; shown on its card."),
          required("instruction", FieldType.text(), "System instruction of every model call."),
          required("model", new FieldType.Object(MODEL), "Provider and model."),
          optional(
              "tool_access", new FieldType.Object(toolAccess(false)), "Which tools it may call."));

  static Shape shape(String id, String description, boolean strict, Field... fields) {
    return new Shape(id, description, List.of(fields), strict);
  }
}
