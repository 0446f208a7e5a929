package dev.svc.compile;

import dev.svc.definition.CacheDefinition;
import dev.svc.definition.Located;
import dev.svc.definition.NamedValue;
import dev.svc.definition.RootDefinition.ServerAuthDefinition;
import dev.svc.definition.Shapes;
import dev.svc.definition.ToolDefinition;
import dev.svc.definition.ToolDefinition.AuthDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.diagnostic.Suggestions;
import dev.svc.json.Json;
import dev.svc.model.Adapter;
import dev.svc.model.AuthPolicy;
import dev.svc.model.CachePolicy;
import dev.svc.model.Confirmation;
import dev.svc.model.DatabaseSession;
import dev.svc.model.EnvString;
import dev.svc.model.Execution;
import dev.svc.model.Input;
import dev.svc.model.RateLimit;
import dev.svc.model.ResultCaps;
import dev.svc.model.ScriptRef;
import dev.svc.model.Statement;
import dev.svc.model.Tool;
import dev.svc.project.Environment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.node.ObjectNode;

/**
 * Compiles tool definitions: backend, scripts, inputs, statement, auth, cache, read-only, MCP
 * annotations and declared output schema.
 */
final class ToolCompiler {
  static final String RESERVED_SEARCH = "search";

  private final Diagnostics diagnostics;
  private final Names names;
  private final ScriptResolver scripts;
  private final StatementCompiler statements;
  private final ToolHintsCompiler hints;
  private final OutputSchemaCompiler outputSchemas;
  private final InputCompiler inputs;
  private final InputSchemaCompiler inputSchemas;
  private final SessionCompiler sessions;
  private final EnvStrings env;
  private final Environment environment;
  private final JwtAuthCompiler tokens;
  private final boolean serverAuthOn;

  /**
   * @param serverAuth the project's {@code server.auth}, if any: it verifies every call's token
   */
  ToolCompiler(
      Diagnostics diagnostics,
      Names names,
      ScriptResolver scripts,
      EnvStrings env,
      Environment environment,
      Optional<ServerAuthDefinition> serverAuth) {
    this.diagnostics = diagnostics;
    this.names = names;
    this.scripts = scripts;
    this.statements = new StatementCompiler(diagnostics);
    this.hints = new ToolHintsCompiler(diagnostics);
    this.outputSchemas = new OutputSchemaCompiler(diagnostics);
    this.inputs = new InputCompiler(diagnostics);
    this.inputSchemas = new InputSchemaCompiler(diagnostics);
    this.sessions = new SessionCompiler(diagnostics);
    this.env = env;
    this.environment = environment;
    this.tokens = new JwtAuthCompiler(diagnostics, serverAuth);
    this.serverAuthOn = serverAuth.isPresent();
  }

  /**
   * Compiles one tool; empty when it has errors (which are reported).
   *
   * @param adapters the project's adapters by name
   * @param brokenAdapters names of adapters that are defined but have errors (already reported, so
   *     a tool using one is not reported again)
   * @param plugins custom auth plugins by name (project-relative script paths)
   * @param defaultCache the global cache settings
   * @param defaultCaps the global result caps
   * @param defaultRateLimit the global rate limit, if any
   */
  Optional<Tool> compile(
      ToolDefinition tool,
      Map<String, Adapter> adapters,
      Set<String> brokenAdapters,
      Map<String, String> plugins,
      CachePolicy defaultCache,
      ResultCaps defaultCaps,
      Optional<RateLimit> defaultRateLimit) {
    int errorsBefore = errorCount();
    String name =
        names.nameOf(tool.name(), tool.directoryName(), Shapes.TOOL_NAME, "tool", tool.origin());
    if (name.equals(RESERVED_SEARCH)) {
      diagnostics.error(
          "reserved-name",
          tool.name().map(Located::origin).orElse(tool.origin()),
          "`search` is the name of the built-in search tool",
          "rename this tool");
    }
    tool.description()
        .filter(d -> d.value().isBlank())
        .ifPresent(d ->
            diagnostics.error("missing-field", d.origin(), "the tool's `description` is empty"));
    env.notSubstituted(tool.description(), "description");

    List<Input> inputs = this.inputs.compile(tool.inputs());
    Optional<ObjectNode> inputSchema = inputSchemas.compile(tool.inputSchema(), tool.inputs());
    List<String> argumentNames =
        inputSchema.isPresent()
            ? inputSchema.get().path("properties").propertyNames().stream().toList()
            : inputs.stream().map(Input::name).toList();
    Optional<ScriptRef> inputMapper =
        tool.inputMapper()
            .map(ref -> scripts.resolve(ref, tool.directory(), "input transform"))
            .orElseGet(() ->
                scripts.byConvention(
                    tool.directory(),
                    "input.ts",
                    List.of("input", "validator"),
                    tool.origin(),
                    "input transform"));
    Optional<ScriptRef> outputMapper =
        tool.outputMapper()
            .map(ref -> scripts.resolve(ref, tool.directory(), "output transform"))
            .orElseGet(() ->
                scripts.byConvention(
                    tool.directory(),
                    "output.ts",
                    List.of("data", "mapper"),
                    tool.origin(),
                    "output transform"));
    Optional<Execution> execution =
        execution(
            tool, adapters, brokenAdapters, argumentNames, inputSchema.isPresent(), inputMapper);
    Optional<AuthPolicy> auth = tool.auth().flatMap(a -> auth(a, plugins, name));
    boolean verifiedToken =
        serverAuthOn || auth.filter(a -> a.plugin().equals(AuthPolicy.JWT)).isPresent();
    Optional<DatabaseSession> session = sessions.compile(tool.session(), execution, verifiedToken);
    execution =
        execution.map(e -> e instanceof Execution.OnAdapter on ? on.withSession(session) : e);
    CachePolicy cache = cache(defaultCache, tool.cache());
    Duration timeout =
        tool.timeout().map(t -> Duration.ofSeconds(t.value())).orElse(Tool.DEFAULT_TIMEOUT);
    ResultCaps caps = caps(defaultCaps, tool.maxRows(), tool.maxBytes());
    Optional<RateLimit> rateLimit =
        RateLimitCompiler.compile(defaultRateLimit, tool.rateLimit(), diagnostics);
    boolean readOnly = hints.readOnly(tool, execution);
    Optional<String> outputSchema = outputSchemas.compile(tool.outputSchema());
    Optional<Confirmation> confirm = ConfirmCompiler.compile(tool, inputs, diagnostics);

    if (errorCount() > errorsBefore || execution.isEmpty()) {
      return Optional.empty();
    }
    if (outputMapper.isEmpty() && caps.any()) {
      warnUnorderedPages(name, execution.get(), tool.statement());
    }
    return Optional.of(
        new Tool(
            name,
            tool.description().map(Located::value).orElse(""),
            inputs,
            execution.get(),
            inputMapper,
            outputMapper,
            auth,
            cache,
            timeout,
            caps,
            readOnly,
            ToolHintsCompiler.annotations(readOnly, execution, tool.annotations()),
            outputSchema,
            confirm,
            inputSchema.map(Json.MAPPER::writeValueAsString), // keys in the order written
            rateLimit));
  }

  private Optional<Execution> execution(
      ToolDefinition tool,
      Map<String, Adapter> adapters,
      Set<String> brokenAdapters,
      List<String> argumentNames,
      boolean declaredSchema,
      Optional<ScriptRef> inputMapper) {
    if (tool.use().isPresent() && tool.handler().isPresent()) {
      diagnostics.error(
          "conflicting-backend",
          tool.handler().get().origin(),
          "the tool sets both `use` and `handler`; exactly one is allowed",
          "keep `use` + `statement` for a database tool, or `handler` for a script tool");
      return Optional.empty();
    }
    if (tool.use().isPresent()
        && scripts
            .byConvention(tool.directory(), "handler.ts", List.of(), tool.origin(), "handler")
            .isPresent()) {
      diagnostics.error(
          "conflicting-backend",
          tool.use().get().origin(),
          "the tool uses adapter `"
              + tool.use().get().value()
              + "`, and handler.ts beside it is a handler by convention; exactly one is allowed",
          "remove or rename handler.ts, or drop `use` and `statement`");
      return Optional.empty();
    }
    if (tool.use().isPresent()) {
      Located<String> use = tool.use().get();
      Adapter adapter = adapters.get(use.value());
      if (adapter == null && brokenAdapters.contains(use.value())) {
        return Optional.empty(); // the adapter's own errors are reported
      }
      if (adapter == null) {
        diagnostics.error(
            "unknown-adapter",
            use.origin(),
            "no adapter is named `" + use.value() + "`",
            Suggestions.didYouMean(use.value(), adapters.keySet())
                .orElse(
                    adapters.isEmpty()
                        ? "define one in app/adapters/" + use.value() + ".terse"
                        : "adapters: " + String.join(", ", new TreeSet<>(adapters.keySet()))));
        return Optional.empty();
      }
      if (tool.statement().isEmpty()) {
        diagnostics.error(
            "missing-statement",
            use.origin(),
            "the tool uses adapter `" + use.value() + "` but has no `statement`",
            "add the SQL or command to run, e.g. `statement: SELECT * FROM items WHERE id = {{ inputs.id }}`");
        return Optional.empty();
      }
      Located<String> source = tool.statement().get();
      Optional<Statement> statement =
          statements.compile(source.value(), adapter.connector(), source.origin());
      if (inputMapper.isEmpty()) {
        statement.ifPresent(
            s -> checkPlaceholders(s, argumentNames, declaredSchema, source.origin()));
      }
      statement.ifPresent(s ->
          tokens.checkClaims(
              s, source.origin(), tool.auth().flatMap(ToolDefinition.AuthDefinition::plugin)));
      return statement.map(s -> new Execution.OnAdapter(adapter.name(), adapter.connector(), s));
    }
    tool.statement()
        .ifPresent(s ->
            diagnostics.error(
                "statement-without-adapter",
                s.origin(),
                "the tool has a `statement` but no `use`",
                "add `use: <adapter>` to run it on a database"));
    Optional<ScriptRef> handler =
        tool.handler().isPresent()
            ? scripts.resolve(tool.handler().get(), tool.directory(), "handler")
            : scripts.byConvention(
                tool.directory(), "handler.ts", List.of(), tool.origin(), "handler");
    if (handler.isEmpty() && tool.handler().isEmpty() && tool.statement().isEmpty()) {
      diagnostics.error(
          "missing-backend",
          tool.origin(),
          "the tool has neither `use` nor `handler`",
          "add `use: <adapter>` and a `statement`, or `handler: handler.ts` (a handler.ts beside config.terse is found by itself)");
    }
    return handler.map(Execution.Handler::new);
  }

  /**
   * A capped SQL tool whose rows are its result pages through them: without an {@code ORDER BY} the
   * database may return them in any order, so a cut keeps arbitrary rows and a cursor's next page
   * may repeat or skip some (docs/results.md).
   */
  private void warnUnorderedPages(
      String name, Execution execution, Optional<Located<String>> written) {
    if (execution instanceof Execution.OnAdapter on
        && on.statement() instanceof Statement.Sql sql
        && written.isPresent()
        && SqlOrdering.readsUnorderedRows(sql.sql(), on.connector())) {
      diagnostics.warning(
          "unordered-pages",
          written.get().origin(),
          "the statement of tool `"
              + name
              + "` has no ORDER BY: a capped result keeps whichever rows come first, and the pages"
              + " read with `cursor` may repeat or skip rows",
          "order by a unique key, e.g. `ORDER BY id`");
    }
  }

  /**
   * Without an input transform, a statement's placeholders name the tool's inputs, or the
   * properties at the root of its {@code input_schema}.
   */
  private void checkPlaceholders(
      Statement statement, List<String> declared, boolean declaredSchema, Origin origin) {
    for (String used : statement.inputNames()) {
      if (!used.startsWith(JwtAuthCompiler.CLAIMS) && !declared.contains(used)) {
        diagnostics.error(
            "unknown-input",
            origin,
            "the statement uses `{{ inputs."
                + used
                + " }}`, but the tool has no "
                + (declaredSchema
                    ? "property `" + used + "` in its `input_schema`"
                    : "input `" + used + "`"),
            Suggestions.didYouMean(used, declared)
                .orElse(
                    declaredSchema
                        ? "describe it under `input_schema: {properties: {" + used + ": ...}}`"
                        : "declare it under `inputs:`"));
      }
    }
  }

  private Optional<AuthPolicy> auth(AuthDefinition auth, Map<String, String> plugins, String tool) {
    if (auth.plugin().isEmpty()) {
      return Optional.empty();
    }
    Located<String> plugin = auth.plugin().get();
    Map<String, EnvString> policy = new LinkedHashMap<>();
    for (NamedValue entry : auth.policy()) {
      policy.put(entry.key().value(), env.substituted(entry.value()));
    }
    Optional<ScriptRef> script = Optional.empty();
    switch (plugin.value()) {
      case AuthPolicy.ALLOW_ALL -> {}
      case AuthPolicy.JWT -> {
        tokens.checkPolicy(plugin, auth.policy());
        if (plugins.containsKey(AuthPolicy.JWT)) {
          diagnostics.warning(
              "shadowed-auth-plugin",
              plugin.origin(),
              "`jwt` is the built-in plugin; app/plugins/jwt.ts is not used",
              "rename the script (and `plugin:`) to use it, or delete it");
        }
      }
      case AuthPolicy.API_KEY -> {
        for (NamedValue entry : auth.policy()) {
          if (entry.key().value().equals("value")
              && !EnvString.ATTEMPT.matcher(entry.value().value()).find()
              && !entry.value().value().isBlank()) {
            diagnostics.warning(
                "literal-secret",
                entry.value().origin(),
                "the API key of tool `"
                    + tool
                    + "` is written in the file: it would be in the repository and in the built"
                    + " artifact",
                "write `value: \"{{ env.MY_KEY }}\"` and set the variable where svc runs (or in"
                    + " .env, kept out of version control), or leave it out and set SVC_API_KEY");
          }
        }
        if (!policy.containsKey("value") && !environment.has("SVC_API_KEY")) {
          diagnostics.warning(
              "missing-api-key",
              plugin.origin(),
              "tool `"
                  + tool
                  + "` uses `api_key` without `policy.value`, and SVC_API_KEY is not set here",
              "set `policy: {value: \"{{ env.MY_KEY }}\"}` or SVC_API_KEY when serving; without a key every call is refused");
        }
      }
      default -> {
        String path = plugins.get(plugin.value());
        if (path == null) {
          List<String> known =
              new ArrayList<>(List.of(AuthPolicy.ALLOW_ALL, AuthPolicy.API_KEY, AuthPolicy.JWT));
          known.addAll(plugins.keySet());
          diagnostics.error(
              "unknown-auth-plugin",
              plugin.origin(),
              "no auth plugin is named `" + plugin.value() + "`",
              Suggestions.didYouMean(plugin.value(), known)
                  .orElse(
                      "built-in plugins: allow_all, api_key, jwt; custom plugins live in app/plugins/<name>.ts"));
          return Optional.empty();
        }
        script =
            Optional.of(
                scripts.use(
                    new ScriptRef(path, ScriptRef.DEFAULT_EXPORT), plugin.origin(), "auth plugin"));
      }
    }
    return Optional.of(new AuthPolicy(plugin.value(), script, policy));
  }

  static CachePolicy cache(CachePolicy base, Optional<CacheDefinition> override) {
    if (override.isEmpty()) {
      return base;
    }
    CacheDefinition c = override.get();
    return new CachePolicy(
        c.enabled().map(Located::value).orElse(base.enabled()),
        c.ttl().map(t -> Duration.ofSeconds(t.value())).orElse(base.ttl()));
  }

  /**
   * Caps with what is written overriding {@code base}; a negative value (reported by the shape
   * check) keeps the base.
   */
  static ResultCaps caps(
      ResultCaps base, Optional<Located<Long>> maxRows, Optional<Located<Long>> maxBytes) {
    return new ResultCaps(
        maxRows.map(Located::value).filter(n -> n >= 0).orElse(base.maxRows()),
        maxBytes.map(Located::value).filter(n -> n >= 0).orElse(base.maxBytes()));
  }

  private int errorCount() {
    return diagnostics.errorCount();
  }
}
