package dev.svc.compile;

import dev.svc.definition.AgentTestsDefinition;
import dev.svc.definition.AgentTestsDefinition.CallDefinition;
import dev.svc.definition.AgentTestsDefinition.CaseDefinition;
import dev.svc.definition.AgentTestsDefinition.ExpectDefinition;
import dev.svc.definition.AgentTestsDefinition.TurnDefinition;
import dev.svc.definition.Located;
import dev.svc.definition.NamedValue;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.diagnostic.Suggestions;
import dev.svc.json.Json;
import dev.svc.model.Adapter;
import dev.svc.model.Agent;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Model;
import dev.svc.project.YamlNode;
import dev.svc.suite.AgentCase;
import dev.svc.suite.AgentSuite;
import dev.svc.suite.Expectation;
import dev.svc.suite.JsonPath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Compiles an agent's {@code tests.terse}: the scripted model's turns (each tool they call must
 * exist) and the expectations on the run. Every problem is reported where it is written.
 */
final class AgentTestCompiler {
  private static final Set<ConnectorKind> SQL =
      Set.of(ConnectorKind.POSTGRES, ConnectorKind.MYSQL, ConnectorKind.SQLITE);

  private final Diagnostics diagnostics;
  private final TestCompiler tests;

  /**
   * @param tests checks fixture files
   */
  AgentTestCompiler(Diagnostics diagnostics, TestCompiler tests) {
    this.diagnostics = diagnostics;
    this.tests = tests;
  }

  /**
   * @param tools the names a tool call may use: the project's tools and {@code search}
   */
  Optional<AgentSuite> compile(
      AgentTestsDefinition definition, Agent agent, Set<String> tools, Model model) {
    int errors = diagnostics.errorCount();
    Map<String, List<String>> fixtures = new LinkedHashMap<>();
    definition.fixtures().ifPresent(node -> fixtures(node, definition, model, fixtures));
    List<AgentCase> cases = new ArrayList<>();
    for (CaseDefinition written : definition.cases()) {
      if (written.expect().isEmpty() || written.message().isEmpty()) {
        continue; // missing-field reported by the shape check
      }
      List<AgentCase.ScriptedTurn> turns = new ArrayList<>();
      for (TurnDefinition turn : written.model()) {
        turns.add(turn(turn, tools));
      }
      if (!written.model().isEmpty()
          && !written.model().getLast().toolCalls().isEmpty()
          && written.expect().get().error().isEmpty()) {
        diagnostics.warning(
            "unfinished-script",
            written.model().getLast().origin(),
            "the last scripted turn of case `"
                + written.name().value()
                + "` calls tools, so the agent asks the model for one more turn, which the case"
                + " does not script",
            "end `model` with a turn that has only `text`: the model's final answer");
      }
      Map<String, String> headers = new LinkedHashMap<>();
      for (NamedValue header : written.headers()) {
        headers.put(header.key().value(), header.value().value());
      }
      List<Expectation> expectations = expectations(written, tools);
      cases.add(
          new AgentCase(
              agent.name(),
              written.name().value(),
              written.name().origin(),
              written.message().get().value(),
              headers,
              turns,
              expectations));
    }
    return diagnostics.errorCount() > errors
        ? Optional.empty()
        : Optional.of(new AgentSuite(agent.name(), definition.file(), fixtures, cases));
  }

  /** {@code fixtures}: adapter name → SQL files; each adapter must be a SQL one a tool uses. */
  private void fixtures(
      YamlNode node,
      AgentTestsDefinition definition,
      Model model,
      Map<String, List<String>> fixtures) {
    if (!(node instanceof YamlNode.Mapping byAdapter)) {
      diagnostics.error(
          "invalid-fixture",
          node.origin(),
          "`fixtures` of an agent's tests maps adapter names to SQL files, found "
              + node.describe(),
          "e.g. `fixtures: {shop: [fixtures.sql]}`");
      return;
    }
    for (YamlNode.Entry entry : byAdapter.entries()) {
      String name = entry.key().text();
      Optional<Adapter> adapter = model.adapter(name);
      if (adapter.isEmpty() || !model.usedAdapters().contains(adapter.get())) {
        diagnostics.error(
            "invalid-fixture",
            entry.key().origin(),
            "no tool uses an adapter named `" + name + "`",
            Suggestions.didYouMean(name, model.usedAdapters().stream().map(Adapter::name).toList())
                .orElse("fixtures run on the adapter of a tool the agent can call"));
        continue;
      }
      if (!SQL.contains(adapter.get().connector())) {
        diagnostics.error(
            "invalid-fixture",
            entry.key().origin(),
            "fixtures are SQL; adapter `" + name + "` is " + adapter.get().connector().wireName(),
            "remove it from `fixtures`");
        continue;
      }
      List<YamlNode> files =
          entry.value() instanceof YamlNode.Sequence list ? list.items() : List.of(entry.value());
      List<String> paths = new ArrayList<>();
      for (YamlNode file : files) {
        if (file instanceof YamlNode.Scalar path && !path.isNull()) {
          tests
              .fixtureFile(new Located<>(path.text(), path.origin()), definition.directory())
              .ifPresent(paths::add);
        } else {
          diagnostics.error(
              "invalid-fixture",
              file.origin(),
              "a fixture is the path of a SQL file, found " + file.describe());
        }
      }
      fixtures.put(name, paths);
    }
  }

  private AgentCase.ScriptedTurn turn(TurnDefinition turn, Set<String> tools) {
    if (turn.text().isEmpty() && turn.toolCalls().isEmpty()) {
      diagnostics.error(
          "invalid-model-turn",
          turn.origin(),
          "a scripted model turn needs `text`, `tool_calls` or both",
          "write the model's answer as `text: …`, or the tools it calls under `tool_calls:`");
    }
    List<AgentCase.ScriptedCall> calls = new ArrayList<>();
    YamlJson json = new YamlJson(diagnostics, "arguments", "invalid-model-turn");
    for (CallDefinition call : turn.toolCalls()) {
      if (call.tool().isEmpty()) {
        continue; // missing-field reported by the shape check
      }
      known(call.tool().get().value(), call.tool().get().origin(), tools);
      JsonNode arguments = call.arguments().map(json::json).orElseGet(Json.NODES::objectNode);
      calls.add(new AgentCase.ScriptedCall(call.tool().get().value(), arguments));
    }
    return new AgentCase.ScriptedTurn(turn.text().map(Located::value).orElse(""), calls);
  }

  private void known(String tool, Origin origin, Set<String> tools) {
    if (!tools.contains(tool)) {
      diagnostics.error(
          "unknown-tool",
          origin,
          "no tool is named `" + tool + "`",
          Suggestions.didYouMean(tool, tools).orElse("tools: " + String.join(", ", tools)));
    }
  }

  private List<Expectation> expectations(CaseDefinition written, Set<String> tools) {
    ExpectDefinition expect = written.expect().orElseThrow();
    List<Expectation> expectations = new ArrayList<>();
    expect
        .answer()
        .ifPresent(a ->
            expectations.add(
                new Expectation.PathValue(
                    "answer", JsonPath.parse("$.answer"), Json.NODES.stringNode(a.value()))));
    expect
        .answerMatches()
        .flatMap(a -> pattern(a, "answer_matches"))
        .ifPresent(p ->
            expectations.add(
                new Expectation.TextMatching("answer_matches", JsonPath.parse("$.answer"), p)));
    expect.toolCalls().ifPresent(node -> toolCalls(node, tools).ifPresent(expectations::add));
    new ExpectationParts(diagnostics)
        .jsonPaths(expect.jsonPath(), "$.tool_calls[0].result", expectations);
    expect
        .error()
        .flatMap(e -> pattern(e, "error"))
        .ifPresent(p -> expectations.add(new Expectation.ErrorMatching(p)));
    if (expectations.isEmpty()
        && expect.answerMatches().isEmpty()
        && expect.error().isEmpty()
        && expect.toolCalls().isEmpty()
        && expect.jsonPath().isEmpty()) {
      diagnostics.error(
          "missing-expectation",
          expect.origin(),
          "case `" + written.name().value() + "` expects nothing",
          "add `answer`, `answer_matches`, `tool_calls`, `json_path` or `error`");
    }
    return expectations;
  }

  private Optional<Expectation> toolCalls(YamlNode node, Set<String> tools) {
    if (!(node instanceof YamlNode.Sequence list)
        || !list.items().stream()
            .allMatch(i -> i instanceof YamlNode.Mapping m && m.get("tool").isPresent())) {
      diagnostics.error(
          "invalid-expectation",
          node.origin(),
          "`tool_calls` must be a list of `{tool, arguments}` mappings, found " + node.describe(),
          "e.g. `tool_calls: [{tool: get_product, arguments: {id: 3}}]`");
      return Optional.empty();
    }
    YamlJson json = new YamlJson(diagnostics, "tool_calls", "invalid-expectation");
    List<JsonNode> expected = new ArrayList<>();
    for (YamlNode item : list.items()) {
      YamlNode.Mapping call = (YamlNode.Mapping) item;
      YamlNode tool = call.get("tool").orElseThrow();
      if (tool instanceof YamlNode.Scalar name) {
        known(name.text(), name.origin(), tools);
      }
      for (YamlNode.Entry entry : call.entries()) {
        if (!entry.key().text().equals("tool") && !entry.key().text().equals("arguments")) {
          diagnostics.error(
              "invalid-expectation",
              entry.key().origin(),
              "unknown key `" + entry.key().text() + "` in an expected tool call",
              "an expected tool call has `tool` and, optionally, `arguments`");
        }
      }
      expected.add(json.json(call));
    }
    return Optional.of(new Expectation.ToolCalls(expected));
  }

  private Optional<Pattern> pattern(Located<String> text, String field) {
    return new ExpectationParts(diagnostics).pattern(text, "`" + field + "`");
  }
}
