package dev.svc.definition;

import dev.svc.definition.AgentDefinition.ModelDefinition;
import dev.svc.definition.PromptDefinition.MessageDefinition;
import dev.svc.definition.RootDefinition.BuildDefinition;
import dev.svc.definition.RootDefinition.NetworksDefinition;
import dev.svc.definition.RootDefinition.ServerDefinition;
import dev.svc.definition.ToolDefinition.AnnotationsDefinition;
import dev.svc.definition.ToolDefinition.AuthDefinition;
import dev.svc.definition.ToolDefinition.InputDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.project.YamlNode;
import java.util.List;
import java.util.Optional;

/**
 * Turns parsed YAML into definition records. Every file is first checked against its {@link Shapes
 * shape}; problems go to the diagnostics and the record holds what could be read.
 */
public final class DefinitionReader {
  private final ShapeChecker checker;

  public DefinitionReader(Diagnostics diagnostics) {
    this.checker = new ShapeChecker(diagnostics);
  }

  public RootDefinition root(YamlNode node) {
    checker.checkMapping(node, Shapes.ROOT, "root configuration");
    Fields f = Fields.of(node);
    Optional<Fields> tools = f.object("tools");
    Optional<Fields> agents = f.object("agents");
    Optional<Fields> server = f.object("server");
    Optional<Fields> build = f.object("build");
    return new RootDefinition(
        f.origin(),
        f.text("name"),
        f.text("version"),
        f.text("root"),
        tools.flatMap(t -> t.text("directory")),
        tools.flatMap(t -> t.object("cache")).map(DefinitionReader::cache),
        tools.flatMap(t -> t.object("search")).flatMap(s -> s.integer("limit")),
        f.object("adapters").flatMap(a -> a.text("directory")),
        f.object("prompts").flatMap(p -> p.text("directory")),
        f.listOf("prompts").map(Located::value).orElse(List.of()).stream()
            .map(p -> prompt(p, "", Optional.empty()))
            .toList(),
        f.object("resources").flatMap(r -> r.text("directory")),
        f.listOf("resources").map(Located::value).orElse(List.of()).stream()
            .map(r -> resource(r, "", Optional.empty()))
            .toList(),
        f.listOf("resource_templates").map(Located::value).orElse(List.of()).stream()
            .map(r -> resource(r, "", Optional.empty()))
            .toList(),
        agents.flatMap(a -> a.text("directory")),
        agents.flatMap(a -> a.object("tool_access")).map(DefinitionReader::toolAccess),
        networks(agents.flatMap(a -> a.object("push_notifications"))),
        new ServerDefinition(
            server.flatMap(s -> s.text("port")),
            server.flatMap(s -> s.integer("log_level")),
            server.flatMap(s -> s.textList("allowed_hosts")).map(Located::value).orElse(List.of()),
            server
                .flatMap(s -> s.textList("allowed_origins"))
                .map(Located::value)
                .orElse(List.of()),
            server.flatMap(s -> s.object("metrics")).flatMap(m -> m.bool("enabled")),
            server.flatMap(s -> s.object("metrics")).flatMap(m -> m.integer("port")),
            server.flatMap(s -> s.object("audit")).flatMap(a -> a.bool("enabled")),
            server.flatMap(s -> s.object("audit")).flatMap(a -> a.text("path")),
            limits(server.flatMap(s -> s.object("limits"))),
            server.flatMap(s -> s.object("auth")).map(DefinitionReader::serverAuth)),
        new BuildDefinition(
            build.flatMap(b -> b.text("out")).or(() -> build.flatMap(b -> b.text("out_dir"))),
            build.flatMap(b -> b.bool("clean_dir"))),
        tools.flatMap(t -> t.integer("max_rows")),
        tools.flatMap(t -> t.integer("max_bytes")),
        tools.flatMap(t -> t.object("rate_limit")).map(DefinitionReader::rateLimit),
        tasks(agents.flatMap(a -> a.object("tasks"))),
        networks(f.object("scripts").flatMap(s -> s.object("fetch"))));
  }

  private static RootDefinition.TasksDefinition tasks(Optional<Fields> tasks) {
    return new RootDefinition.TasksDefinition(
        tasks.flatMap(t -> t.text("store")),
        tasks.flatMap(t -> t.integer("lease_seconds")),
        tasks.flatMap(t -> t.integer("retention_hours")),
        tasks.flatMap(t -> t.integer("max_running")),
        tasks.flatMap(t -> t.integer("max_waiting")));
  }

  private static RootDefinition.LimitsDefinition limits(Optional<Fields> limits) {
    return new RootDefinition.LimitsDefinition(
        limits.flatMap(l -> l.integer("max_body_mb")),
        limits.flatMap(l -> l.integer("header_timeout")),
        limits.flatMap(l -> l.integer("body_timeout")),
        limits.flatMap(l -> l.integer("connections_per_client")),
        limits.flatMap(l -> l.integer("drain_timeout")),
        limits.flatMap(l -> l.integer("drain_delay")));
  }

  private static RootDefinition.ServerAuthDefinition serverAuth(Fields auth) {
    Optional<Fields> policy = auth.object("policy");
    return new RootDefinition.ServerAuthDefinition(
        auth.origin(),
        auth.text("plugin"),
        policy.map(Fields::origin).orElse(auth.origin()),
        policy.flatMap(p -> p.text("issuer")),
        policy.flatMap(p -> p.text("audience")),
        policy.flatMap(p -> p.textList("scopes")).map(Located::value).orElse(List.of()),
        policy.flatMap(p -> p.text("jwks_uri")),
        policy.flatMap(p -> p.object("introspection")).map(DefinitionReader::introspection));
  }

  private static RootDefinition.IntrospectionDefinition introspection(Fields introspection) {
    return new RootDefinition.IntrospectionDefinition(
        introspection.origin(),
        introspection.text("client_id"),
        introspection.text("client_secret"),
        introspection.text("endpoint"),
        introspection.text("tokens"),
        introspection.integer("cache_seconds"));
  }

  /** {@code agents.push_notifications} or {@code scripts.fetch}. */
  private static NetworksDefinition networks(Optional<Fields> section) {
    return new NetworksDefinition(
        section.flatMap(p -> p.bool("allow_private_networks")),
        section.flatMap(p -> p.textList("allowed_networks")).map(Located::value).orElse(List.of()));
  }

  public AdapterDefinition adapter(YamlNode node, String fileName) {
    checker.checkMapping(node, Shapes.ADAPTER, "adapter");
    Fields f = Fields.of(node);
    return new AdapterDefinition(
        f.origin(),
        fileName,
        f.text("name"),
        f.text("connector"),
        f.text("connection_string"),
        namedValues(f, "options"));
  }

  /**
   * A tool's {@code tests.terse}.
   *
   * @param file the file relative to the project
   * @param directory the tool directory relative to the project
   */
  public ToolTestsDefinition toolTests(
      YamlNode node, String file, String directory, String directoryName) {
    checker.checkMapping(node, TestShapes.TESTS, "test file");
    Fields f = Fields.of(node);
    return new ToolTestsDefinition(
        f.origin(),
        file,
        directory,
        directoryName,
        f.textList("fixtures").map(Located::value).orElse(List.of()),
        f.bool("in_memory_sqlite"),
        f.bool("fresh_schema"),
        f.mapOf("cases").stream()
            .map(e ->
                new ToolTestsDefinition.CaseDefinition(
                    e.key(),
                    e.value().node("inputs"),
                    namedValues(e.value(), "headers"),
                    e.value().node("claims"),
                    e.value()
                        .object("expect")
                        .map(x ->
                            new ToolTestsDefinition.ExpectDefinition(
                                x.origin(),
                                x.node("result"),
                                x.node("rows_contain"),
                                x.integer("row_count"),
                                x.node("json_path"),
                                x.text("error"),
                                x.bool("truncated")))))
            .toList());
  }

  /**
   * A prompt's {@code <name>.tests.terse} or a resource's {@code tests.terse}.
   *
   * @param file the file relative to the project
   * @param directory its folder relative to the project
   * @param stem for a prompt, the name of the prompt file it tests without {@code .terse}
   */
  public ContentTestsDefinition contentTests(
      ContentTestsDefinition.Kind kind, YamlNode node, String file, String directory, String stem) {
    boolean prompt = kind == ContentTestsDefinition.Kind.PROMPT;
    checker.checkMapping(
        node, prompt ? TestShapes.PROMPT_TESTS : TestShapes.RESOURCE_TESTS, "test file");
    Fields f = Fields.of(node);
    return new ContentTestsDefinition(
        kind,
        f.origin(),
        file,
        directory,
        stem,
        f.mapOf("cases").stream()
            .map(e ->
                new ContentTestsDefinition.CaseDefinition(
                    e.key(),
                    namedValues(e.value(), "arguments"),
                    e.value().text("uri"),
                    e.value()
                        .object("expect")
                        .map(x ->
                            new ContentTestsDefinition.ExpectDefinition(
                                x.origin(),
                                x.node("messages"),
                                x.node("json_path"),
                                x.text("error"),
                                x.text("uri"),
                                x.text("mime_type"),
                                x.text("text"),
                                x.text("text_matches")))))
            .toList());
  }

  /**
   * An agent's {@code tests.terse}.
   *
   * @param file the file relative to the project
   */
  public AgentTestsDefinition agentTests(
      YamlNode node, String file, String directory, String directoryName) {
    checker.checkMapping(node, TestShapes.AGENT_TESTS, "test file");
    Fields f = Fields.of(node);
    return new AgentTestsDefinition(
        f.origin(),
        file,
        directory,
        directoryName,
        f.node("fixtures"),
        f.mapOf("cases").stream()
            .map(e ->
                new AgentTestsDefinition.CaseDefinition(
                    e.key(),
                    e.value().text("message"),
                    namedValues(e.value(), "headers"),
                    e.value().listOf("model").map(Located::value).orElse(List.of()).stream()
                        .map(turn ->
                            new AgentTestsDefinition.TurnDefinition(
                                turn.origin(),
                                turn.text("text"),
                                turn
                                    .listOf("tool_calls")
                                    .map(Located::value)
                                    .orElse(List.of())
                                    .stream()
                                    .map(call ->
                                        new AgentTestsDefinition.CallDefinition(
                                            call.origin(),
                                            call.text("tool"),
                                            call.node("arguments")))
                                    .toList()))
                        .toList(),
                    e.value()
                        .object("expect")
                        .map(x ->
                            new AgentTestsDefinition.ExpectDefinition(
                                x.origin(),
                                x.text("answer"),
                                x.text("answer_matches"),
                                x.node("tool_calls"),
                                x.node("json_path"),
                                x.text("error")))))
            .toList());
  }

  public ToolDefinition tool(YamlNode node, String directory, String directoryName) {
    checker.checkMapping(node, Shapes.TOOL, "tool");
    Fields f = Fields.of(node);
    Optional<Fields> mappers = f.object("mappers");
    return new ToolDefinition(
        f.origin(),
        directory,
        directoryName,
        f.text("name"),
        f.text("description"),
        f.text("use"),
        f.text("statement"),
        f.text("handler"),
        mappers.flatMap(m -> m.text("input")),
        mappers.flatMap(m -> m.text("output")),
        f.mapOf("inputs").stream()
            .map(e ->
                new InputDefinition(
                    e.key(),
                    e.value().text("type"),
                    e.value().text("description"),
                    e.value().bool("optional"),
                    e.value().bool("required"),
                    e.value().text("default"),
                    e.value().bool("redact"),
                    e.value().text("header")))
            .toList(),
        f.object("auth")
            .map(a -> new AuthDefinition(a.origin(), a.text("plugin"), namedValues(a, "policy"))),
        f.object("cache").map(DefinitionReader::cache),
        f.integer("timeout"),
        f.integer("max_rows"),
        f.integer("max_bytes"),
        f.bool("read_only"),
        f.object("rate_limit").map(DefinitionReader::rateLimit),
        f.object("annotations").map(DefinitionReader::annotations),
        f.node("output_schema"),
        f.text("confirm"),
        f.text("confirm_fallback"),
        f.node("input_schema"),
        f.object("session").map(DefinitionReader::session));
  }

  private static SessionDefinition session(Fields f) {
    return new SessionDefinition(
        f.origin(), namedValues(f, "settings"), f.text("role"), f.textList("allowed_roles"));
  }

  private static RateLimitDefinition rateLimit(Fields f) {
    return new RateLimitDefinition(
        f.origin(), f.bool("enabled"), f.integer("requests"), f.text("per"), f.text("store"));
  }

  private static AnnotationsDefinition annotations(Fields f) {
    return new AnnotationsDefinition(
        f.origin(),
        f.text("title"),
        f.bool("read_only_hint"),
        f.bool("destructive_hint"),
        f.bool("idempotent_hint"),
        f.bool("open_world_hint"));
  }

  public PromptDefinition prompt(YamlNode node, String directory, Optional<String> defaultName) {
    checker.checkMapping(node, Shapes.PROMPT, "prompt");
    return prompt(Fields.of(node), directory, defaultName);
  }

  private PromptDefinition prompt(Fields f, String directory, Optional<String> defaultName) {
    return new PromptDefinition(
        f.origin(),
        directory,
        defaultName,
        f.text("name"),
        f.text("title"),
        f.text("description"),
        arguments(f),
        f.listOf("messages")
            .map(list ->
                new Located<>(
                    list.value().stream()
                        .map(m ->
                            new MessageDefinition(
                                m.origin(),
                                m.text("role"),
                                m.text("text"),
                                m.text("image"),
                                m.text("mime_type"),
                                m.text("resource")))
                        .toList(),
                    list.origin())));
  }

  public ResourceDefinition resource(
      YamlNode node, String directory, Optional<String> defaultName) {
    checker.checkMapping(node, Shapes.RESOURCE, "resource");
    return resource(Fields.of(node), directory, defaultName);
  }

  private ResourceDefinition resource(Fields f, String directory, Optional<String> defaultName) {
    return new ResourceDefinition(
        f.origin(),
        directory,
        defaultName,
        f.text("name"),
        f.text("title"),
        f.text("description"),
        f.text("mime_type"),
        f.text("uri"),
        f.text("text"),
        f.text("file"),
        f.text("uri_template"),
        f.text("text_template"),
        f.text("file_template"),
        arguments(f));
  }

  public AgentDefinition agent(YamlNode node, String directoryName) {
    checker.checkMapping(node, Shapes.AGENT, "agent");
    Fields f = Fields.of(node);
    return new AgentDefinition(
        f.origin(),
        directoryName,
        f.text("name"),
        f.text("description"),
        f.text("instruction"),
        f.object("model")
            .map(m ->
                new ModelDefinition(
                    m.origin(), m.text("provider"), m.text("model"), namedValues(m, "options"))),
        f.object("tool_access").map(DefinitionReader::toolAccess));
  }

  private static List<ArgumentDefinition> arguments(Fields f) {
    return f.mapOf("arguments").stream()
        .map(e ->
            new ArgumentDefinition(
                e.key(),
                e.value().text("title"),
                e.value().text("description"),
                e.value().bool("required"),
                e.value().textList("completion").map(Located::value).orElse(List.of()),
                e.value().text("default"),
                e.value().has("default")))
        .toList();
  }

  private static CacheDefinition cache(Fields f) {
    return new CacheDefinition(f.origin(), f.bool("enabled"), f.integer("ttl"), f.text("store"));
  }

  private static ToolAccessDefinition toolAccess(Fields f) {
    return new ToolAccessDefinition(f.origin(), f.text("mode"), f.textList("tools"));
  }

  private static List<NamedValue> namedValues(Fields f, String name) {
    return f.scalarMap(name).stream().map(e -> new NamedValue(e.key(), e.value())).toList();
  }
}
