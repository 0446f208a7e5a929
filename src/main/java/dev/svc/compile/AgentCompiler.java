package dev.svc.compile;

import dev.svc.definition.AgentDefinition;
import dev.svc.definition.AgentDefinition.ModelDefinition;
import dev.svc.definition.Located;
import dev.svc.definition.NamedValue;
import dev.svc.definition.ToolAccessDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Suggestions;
import dev.svc.model.Agent;
import dev.svc.model.EnvString;
import dev.svc.model.Provider;
import dev.svc.model.ToolAccess;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Compiles agents: provider, model options and effective tool access. */
final class AgentCompiler {
  private final Diagnostics diagnostics;
  private final EnvStrings env;

  AgentCompiler(Diagnostics diagnostics, EnvStrings env) {
    this.diagnostics = diagnostics;
    this.env = env;
  }

  /**
   * Compiles an agent whose name has been settled.
   *
   * @param toolNames every tool an access list may name
   * @param rootAccess what {@code inherit} resolves to
   */
  Optional<Agent> compile(
      AgentDefinition agent, String name, Set<String> toolNames, ToolAccess rootAccess) {
    int errorsBefore = diagnostics.errorCount();
    env.notSubstituted(agent.instruction(), "instruction");
    agent
        .instruction()
        .filter(i -> i.value().isBlank())
        .ifPresent(i ->
            diagnostics.error("missing-field", i.origin(), "the agent's `instruction` is empty"));
    Optional<Agent.ModelSpec> model = agent.model().flatMap(this::model);
    ToolAccess access =
        agent.toolAccess().flatMap(a -> access(a, toolNames, true)).orElse(rootAccess);
    if (diagnostics.errorCount() > errorsBefore
        || model.isEmpty()
        || agent.instruction().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Agent(
            name,
            agent.description().map(Located::value),
            agent.instruction().get().value(),
            model.get(),
            access));
  }

  private Optional<Agent.ModelSpec> model(ModelDefinition model) {
    if (model.provider().isEmpty() || model.model().isEmpty()) {
      return Optional.empty(); // reported by the shape check
    }
    Located<String> written = model.provider().get();
    Optional<Provider> provider = Provider.parse(written.value());
    if (provider.isEmpty()) {
      diagnostics.error(
          "unknown-provider",
          written.origin(),
          "model provider `" + written.value() + "` is not supported",
          Suggestions.didYouMean(Provider.normalise(written.value()), Provider.names())
              .orElse("use one of: " + String.join(", ", Provider.names())));
      return Optional.empty();
    }
    Map<String, EnvString> options = new LinkedHashMap<>();
    for (NamedValue option : model.options()) {
      EnvString value = env.substituted(option.value());
      String key = option.key().value();
      if (Agent.ModelSpec.LOOP_OPTIONS.contains(key)
          && !value.hasPlaceholders()
          && !Agent.ModelSpec.isPositiveWholeNumber(value.template())) {
        diagnostics.error(
            "invalid-option",
            option.value().origin(),
            "model option `"
                + key
                + "` must be a positive whole number, not `"
                + value.template()
                + "`",
            key.equals("timeout")
                ? "seconds one model call may take, e.g. `timeout: 60`"
                : "model calls per task, e.g. `max_steps: 12` (default 8)");
      }
      if (key.equals("api_key")
          && !EnvString.ATTEMPT.matcher(option.value().value()).find()
          && !value.template().isBlank()) {
        diagnostics.warning(
            "literal-secret",
            option.value().origin(),
            "model option `api_key` is written in the file: it would be in the repository and in"
                + " the built artifact",
            "write `api_key: \"{{ env.MODEL_API_KEY }}\"` and set the variable where svc runs (or in"
                + " .env, kept out of version control)");
      }
      options.put(key, value);
    }
    return Optional.of(new Agent.ModelSpec(provider.get(), model.model().get().value(), options));
  }

  /**
   * The access a {@code tool_access} block describes; empty for {@code inherit} (or when invalid).
   */
  Optional<ToolAccess> access(ToolAccessDefinition access, Set<String> toolNames, boolean agent) {
    String mode = access.mode().map(Located::value).orElse(agent ? "inherit" : "allow_all");
    Optional<Located<List<Located<String>>>> tools = access.tools();
    switch (mode) {
      case "inherit" -> {
        return Optional.empty();
      }
      case "allow_all", "allow_none" -> {
        tools.ifPresent(t ->
            diagnostics.warning(
                "ignored-tool-list",
                t.origin(),
                "`tools` is ignored because the mode is `" + mode + "`",
                "use `mode: allow_list` to limit access to these tools"));
        return Optional.of(
            new ToolAccess(
                mode.equals("allow_all") ? ToolAccess.Mode.ALLOW_ALL : ToolAccess.Mode.ALLOW_NONE,
                List.of()));
      }
      case "allow_list" -> {
        if (tools.isEmpty() || tools.get().value().isEmpty()) {
          diagnostics.error(
              "missing-tool-list",
              access.mode().get().origin(),
              "mode `allow_list` needs a non-empty `tools` list",
              "add `tools: [tool_a, tool_b]`, or use `allow_none`");
          return Optional.empty();
        }
        for (Located<String> tool : tools.get().value()) {
          if (!toolNames.contains(tool.value())) {
            diagnostics.error(
                "unknown-tool",
                tool.origin(),
                "no tool is named `" + tool.value() + "`",
                Suggestions.didYouMean(tool.value(), toolNames)
                    .orElse("tools: " + String.join(", ", new TreeSet<>(toolNames))));
          }
        }
        return Optional.of(
            new ToolAccess(
                ToolAccess.Mode.ALLOW_LIST,
                tools.get().value().stream().map(Located::value).distinct().toList()));
      }
      default -> {
        return Optional.empty(); // reported by the shape check
      }
    }
  }
}
