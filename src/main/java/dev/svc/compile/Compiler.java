package dev.svc.compile;

import dev.svc.definition.AdapterDefinition;
import dev.svc.definition.AgentDefinition;
import dev.svc.definition.AgentTestsDefinition;
import dev.svc.definition.ContentTestsDefinition;
import dev.svc.definition.Located;
import dev.svc.definition.PromptDefinition;
import dev.svc.definition.ResourceDefinition;
import dev.svc.definition.RootDefinition;
import dev.svc.definition.Shapes;
import dev.svc.definition.ToolDefinition;
import dev.svc.definition.ToolTestsDefinition;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.model.Adapter;
import dev.svc.model.Agent;
import dev.svc.model.CachePolicy;
import dev.svc.model.Model;
import dev.svc.model.Prompt;
import dev.svc.model.RateLimit;
import dev.svc.model.Resource;
import dev.svc.model.ResourceTemplate;
import dev.svc.model.ResultCaps;
import dev.svc.model.Scripts;
import dev.svc.model.Service;
import dev.svc.model.Tool;
import dev.svc.model.ToolAccess;
import dev.svc.project.Environment;
import dev.svc.project.Project;
import dev.svc.suite.Suite;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns a project into an immutable {@link Model}, or into every problem found in it. Reads the
 * project's files and nothing else: it never connects to a database or a model provider, and never
 * needs the values of environment variables ({@code environment} only decides a warning).
 */
public final class Compiler {
  private Compiler() {}

  public static Compilation compile(Project project, Environment environment) {
    Diagnostics diagnostics = new Diagnostics();
    Optional<Definitions> read = new ProjectReader(project, diagnostics).read();
    if (read.isEmpty()) {
      return new Compilation.Failure(diagnostics.sorted());
    }
    Run run = new Run(project, environment, diagnostics, read.get());
    Optional<Model> model = run.model();
    List<Suite> suites = model.map(run::suites).orElse(List.of());
    List<Diagnostic> sorted = diagnostics.sorted();
    return model.isPresent() && !diagnostics.hasErrors()
        ? new Compilation.Success(model.get(), sorted, adapterOrigins(read.get()), suites)
        : new Compilation.Failure(sorted);
  }

  /** Where each adapter's connection is written: its connection string, else its file. */
  private static Map<String, Origin> adapterOrigins(Definitions definitions) {
    Map<String, Origin> origins = new LinkedHashMap<>();
    for (AdapterDefinition definition : definitions.adapters()) {
      origins.putIfAbsent(
          definition.name().map(Located::value).orElse(definition.fileName()),
          definition.connectionString().map(Located::origin).orElse(definition.origin()));
    }
    return origins;
  }

  /** One compilation: the state shared by the steps below. */
  private static final class Run {
    private final Diagnostics diagnostics;
    private final Definitions definitions;
    private final Names names;
    private final EnvStrings env;
    private final AdapterCompiler adapterCompiler;
    private final ToolCompiler toolCompiler;
    private final ScriptResolver scripts;
    private final ScriptCompiler scriptCompiler;
    private final PromptCompiler promptCompiler;
    private final ResourceCompiler resourceCompiler;
    private final AgentCompiler agentCompiler;
    private final TestCompiler testCompiler;
    private final ContentTestCompiler contentTestCompiler;
    private final AgentTestCompiler agentTestCompiler;

    Run(
        Project project,
        Environment environment,
        Diagnostics diagnostics,
        Definitions definitions) {
      this.diagnostics = diagnostics;
      this.definitions = definitions;
      this.names = new Names(diagnostics);
      this.env = new EnvStrings(diagnostics);
      this.adapterCompiler = new AdapterCompiler(diagnostics, names, env, project.directory());
      this.scripts = new ScriptResolver(project.directory(), diagnostics);
      this.scriptCompiler = new ScriptCompiler(project.directory(), diagnostics);
      this.toolCompiler =
          new ToolCompiler(
              diagnostics, names, scripts, env, environment, definitions.root().server().auth());
      this.promptCompiler =
          new PromptCompiler(
              diagnostics,
              env,
              project.directory(),
              definitions.resources(),
              definitions.unreadable().anyResource());
      this.resourceCompiler = new ResourceCompiler(diagnostics, project.directory());
      this.agentCompiler = new AgentCompiler(diagnostics, env);
      this.testCompiler = new TestCompiler(diagnostics, project.directory());
      this.contentTestCompiler = new ContentTestCompiler(diagnostics);
      this.agentTestCompiler = new AgentTestCompiler(diagnostics, testCompiler);
    }

    /**
     * The suites of the tools' {@code tests.terse} files. Tests beside a directory that is no tool
     * are an error; tests of a tool that did not compile are skipped (its error is the one to fix).
     */
    List<Suite> suites(Model model) {
      List<Suite> suites = new ArrayList<>();
      for (ToolTestsDefinition tests : definitions.toolTests()) {
        Optional<ToolDefinition> tool =
            definitions.tools().stream()
                .filter(t -> t.directory().equals(tests.directory()))
                .findFirst();
        if (tool.isEmpty()) {
          if (!definitions.unreadable().tools().contains(tests.directoryName())) {
            diagnostics.error(
                "unknown-test-target",
                tests.origin(),
                "`" + tests.file() + "` tests no tool: its directory has no config.terse",
                "move it beside the config.terse of the tool it tests");
          }
          continue;
        }
        String name = tool.get().name().map(Located::value).orElse(tool.get().directoryName());
        model
            .tool(name)
            .flatMap(compiled -> testCompiler.compile(tests, compiled))
            .ifPresent(suites::add);
      }
      Set<String> toolNames = new TreeSet<>();
      model.tools().forEach(t -> toolNames.add(t.name()));
      toolNames.add(ToolCompiler.RESERVED_SEARCH);
      for (AgentTestsDefinition tests : definitions.agentTests()) {
        Optional<AgentDefinition> agent =
            definitions.agents().stream()
                .filter(a -> a.directoryName().equals(tests.directoryName()))
                .findFirst();
        if (agent.isEmpty()) {
          diagnostics.error(
              "unknown-test-target",
              tests.origin(),
              "`" + tests.file() + "` tests no agent: its directory has no config.terse",
              "move it beside the config.terse of the agent it tests");
          continue;
        }
        String name = agent.get().name().map(Located::value).orElse(tests.directoryName());
        model
            .agent(name)
            .flatMap(a -> agentTestCompiler.compile(tests, a, toolNames, model))
            .ifPresent(suites::add);
      }
      for (ContentTestsDefinition tests : definitions.contentTests()) {
        switch (tests.kind()) {
          case PROMPT -> promptSuite(tests, model).ifPresent(suites::add);
          case RESOURCE -> resourceSuite(tests, model).ifPresent(suites::add);
        }
      }
      return suites;
    }

    private Optional<Suite> promptSuite(ContentTestsDefinition tests, Model model) {
      Optional<PromptDefinition> prompt =
          definitions.prompts().stream()
              .filter(p ->
                  p.directory().equals(tests.directory())
                      && p.defaultName().equals(Optional.of(tests.stem())))
              .findFirst();
      if (prompt.isEmpty()) {
        diagnostics.error(
            "unknown-test-target",
            tests.origin(),
            "`"
                + tests.file()
                + "` tests no prompt: there is no `"
                + tests.stem()
                + ".terse` beside"
                + " it",
            "name a prompt's tests after its file: <prompt file name>.tests.terse");
        return Optional.empty();
      }
      String name = prompt.get().name().map(Located::value).orElse(tests.stem());
      return model
          .prompt(name)
          .flatMap(p -> contentTestCompiler.prompt(tests, p))
          .map(Suite.class::cast);
    }

    private Optional<Suite> resourceSuite(ContentTestsDefinition tests, Model model) {
      Optional<ResourceDefinition> resource =
          definitions.resources().stream()
              .filter(r -> r.directory().equals(tests.directory()))
              .findFirst();
      if (resource.isEmpty()) {
        if (!definitions.unreadable().anyResource()) {
          diagnostics.error(
              "unknown-test-target",
              tests.origin(),
              "`" + tests.file() + "` tests no resource: its folder has no config.terse",
              "move it beside the config.terse of the resource or template it tests");
        }
        return Optional.empty();
      }
      Optional<String> uri = resource.get().uri().map(Located::value);
      Optional<String> template = resource.get().uriTemplate().map(Located::value);
      Optional<Resource> concrete =
          uri.flatMap(u -> model.resources().stream().filter(r -> r.uri().equals(u)).findFirst());
      Optional<ResourceTemplate> templated =
          template.flatMap(t ->
              model.resourceTemplates().stream()
                  .filter(r -> r.uriTemplate().equals(t))
                  .findFirst());
      if (concrete.isEmpty() && templated.isEmpty()) {
        return Optional.empty(); // the resource did not compile: its error is the one to fix
      }
      return contentTestCompiler.resource(tests, concrete, templated).map(Suite.class::cast);
    }

    Optional<Model> model() {
      RootDefinition root = definitions.root();
      CachePolicy defaultCache = ToolCompiler.cache(CachePolicy.OFF, root.cache());
      Map<String, Adapter> adapters = adapters();
      Set<String> brokenAdapters = new TreeSet<>(definitions.unreadable().adapters());
      for (AdapterDefinition definition : definitions.adapters()) {
        String name = definition.name().map(Located::value).orElse(definition.fileName());
        if (!adapters.containsKey(name)) {
          brokenAdapters.add(name);
        }
      }
      ResultCaps defaultCaps =
          ToolCompiler.caps(ResultCaps.DEFAULTS, root.maxRows(), root.maxBytes());
      Optional<RateLimit> defaultRateLimit =
          RateLimitCompiler.compile(Optional.empty(), root.rateLimit(), diagnostics);
      List<Tool> tools =
          tools(adapters, brokenAdapters, defaultCache, defaultCaps, defaultRateLimit);
      Scripts bundled = scriptCompiler.compile(scripts.used());
      List<Prompt> prompts = prompts();
      List<Resource> resources = new ArrayList<>();
      List<ResourceTemplate> templates = new ArrayList<>();
      resources(resources, templates);
      Set<String> toolNames = new TreeSet<>(toolNamesWritten());
      toolNames.add(ToolCompiler.RESERVED_SEARCH);
      // a tool whose file cannot be parsed exists: its YAML error is the one to fix, so allow-lists
      // naming it get no unknown-tool on top (the compilation fails anyway)
      toolNames.addAll(definitions.unreadable().tools());
      ToolAccess rootAccess =
          root.agentToolAccess()
              .flatMap(a -> agentCompiler.access(a, toolNames, false))
              .orElse(ToolAccess.ALLOW_ALL);
      List<Agent> agents = agents(toolNames, rootAccess);

      if (definitions.tools().isEmpty()
          && definitions.prompts().isEmpty()
          && definitions.resources().isEmpty()
          && definitions.agents().isEmpty()
          && definitions.unreadable().files() == 0) {
        diagnostics.error(
            "empty-project",
            root.origin(),
            "the project defines no tools, prompts, resources or agents",
            "add a tool in "
                + definitions.baseDirectory()
                + "/tools/<name>/config.terse (`svc init` writes an example)");
      }
      Optional<Service> service =
          new ServiceCompiler(diagnostics)
              .compile(root, defaultCache, rootAccess, adapters, brokenAdapters);
      return service.map(s ->
          new Model(
              s,
              List.copyOf(adapters.values()),
              tools,
              prompts,
              resources,
              templates,
              agents,
              bundled));
    }

    private Map<String, Adapter> adapters() {
      Names.Registry registry = names.registry("duplicate-adapter", "adapter");
      Map<String, Adapter> adapters = new LinkedHashMap<>();
      for (AdapterDefinition definition : definitions.adapters()) {
        adapterCompiler
            .compile(definition)
            .filter(a ->
                registry.claim(
                    a.name(), definition.name().map(Located::origin).orElse(definition.origin())))
            .ifPresent(a -> adapters.put(a.name(), a));
      }
      return adapters;
    }

    private List<Tool> tools(
        Map<String, Adapter> adapters,
        Set<String> brokenAdapters,
        CachePolicy defaultCache,
        ResultCaps defaultCaps,
        Optional<RateLimit> defaultRateLimit) {
      Names.Registry registry = names.registry("duplicate-tool", "tool");
      List<Tool> tools = new ArrayList<>();
      for (ToolDefinition definition : definitions.tools()) {
        String name = definition.name().map(Located::value).orElse(definition.directoryName());
        boolean unique =
            registry.claim(
                name, definition.name().map(Located::origin).orElse(definition.origin()));
        toolCompiler
            .compile(
                definition,
                adapters,
                brokenAdapters,
                definitions.plugins(),
                defaultCache,
                defaultCaps,
                defaultRateLimit)
            .filter(t -> unique)
            .ifPresent(tools::add);
      }
      return tools;
    }

    private List<String> toolNamesWritten() {
      return definitions.tools().stream()
          .map(t -> t.name().map(Located::value).orElse(t.directoryName()))
          .toList();
    }

    private List<Prompt> prompts() {
      Names.Registry registry = names.registry("duplicate-prompt", "prompt");
      List<Prompt> prompts = new ArrayList<>();
      for (PromptDefinition definition : definitions.prompts()) {
        Optional<String> name = definition.name().map(Located::value).or(definition::defaultName);
        if (name.isEmpty()) {
          diagnostics.error(
              "missing-field",
              definition.origin(),
              "an inline prompt needs a `name`",
              "add `name: <prompt name>`");
          continue;
        }
        boolean unique =
            registry.claim(
                name.get(), definition.name().map(Located::origin).orElse(definition.origin()));
        if (definition.messages().isEmpty()) {
          continue; // missing-field reported by the shape check
        }
        promptCompiler.compile(definition, name.get()).filter(p -> unique).ifPresent(prompts::add);
      }
      return prompts;
    }

    private void resources(List<Resource> resources, List<ResourceTemplate> templates) {
      Names.Registry uris = names.registry("duplicate-resource", "resource URI");
      Names.Registry uriTemplates = names.registry("duplicate-template", "resource template");
      for (ResourceDefinition definition : definitions.resources()) {
        resourceCompiler
            .compile(definition)
            .ifPresent(compiled -> {
              switch (compiled) {
                case ResourceCompiler.Concrete c -> {
                  if (uris.claim(c.resource().uri(), c.origin())) {
                    resources.add(c.resource());
                  }
                }
                case ResourceCompiler.Template t -> {
                  if (uriTemplates.claim(t.template().uriTemplate(), t.origin())) {
                    templates.add(t.template());
                  }
                }
              }
            });
      }
    }

    private List<Agent> agents(Set<String> toolNames, ToolAccess rootAccess) {
      Names.Registry registry = names.registry("duplicate-agent", "agent");
      List<Agent> agents = new ArrayList<>();
      for (AgentDefinition definition : definitions.agents()) {
        String name =
            names.nameOf(
                definition.name(),
                definition.directoryName(),
                Shapes.LOWER_NAME,
                "agent",
                definition.origin());
        boolean unique =
            registry.claim(
                name, definition.name().map(Located::origin).orElse(definition.origin()));
        agentCompiler
            .compile(definition, name, toolNames, rootAccess)
            .filter(a -> unique)
            .ifPresent(agents::add);
      }
      return agents;
    }
  }
}
