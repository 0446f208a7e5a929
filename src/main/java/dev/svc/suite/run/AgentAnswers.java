package dev.svc.suite.run;

import dev.svc.agent.AgentLoop;
import dev.svc.agent.AgentTools;
import dev.svc.agent.FunctionNames;
import dev.svc.agent.ModelException;
import dev.svc.agent.ModelSettings;
import dev.svc.agent.Turn;
import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.json.Json;
import dev.svc.model.Agent;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.ratelimit.InMemoryRateLimiter;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.suite.AgentCase;
import dev.svc.suite.Answer;
import dev.svc.suite.Mismatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Agent cases: the agent's own loop ({@link AgentLoop}, the one A2A tasks run) with a {@link
 * ScriptedModel} in place of the provider, calling tools through the runtime's pipeline.
 */
final class AgentAnswers {
  private AgentAnswers() {}

  /**
   * How a run went.
   *
   * @param answer what the case checks
   * @param scriptEnded the agent asked for more turns than scripted (an error of the case)
   * @param unusedTurns the run answered before every scripted turn was used (a failure)
   */
  record Run(Answer answer, Optional<String> scriptEnded, Optional<Mismatch> unusedTurns) {}

  static Run run(ProjectRuntime runtime, Model model, Environment environment, AgentCase testCase) {
    Agent agent =
        model
            .agent(testCase.agent())
            .orElseThrow(() -> new IllegalStateException("no agent " + testCase.agent()));
    AgentTools tools = new AgentTools(agent, runtime.tools(), new InMemoryRateLimiter());
    FunctionNames functions = new FunctionNames(tools.names());
    ScriptedModel scripted = new ScriptedModel(testCase.model(), functions);
    AgentLoop loop = new AgentLoop(agent, scripted, tools, maxSteps(agent, environment));
    Caller caller =
        new Caller(
                "test-" + Integer.toHexString(testCase.name().hashCode()),
                headers(testCase.headers()),
                Optional.empty())
            .via("agent:" + agent.name());
    AgentLoop.Answer answer;
    try {
      answer = loop.run(List.of(new Turn.User(testCase.message())), caller, false, piece -> {});
    } catch (ScriptedModel.ScriptEnded e) {
      return new Run(Answer.failure(e.getMessage()), Optional.of(e.getMessage()), Optional.empty());
    } catch (ModelException e) {
      // a run that failed (its steps ran out) leaves turns unused by design
      return new Run(Answer.failure(e.getMessage()), Optional.empty(), Optional.empty());
    }
    ObjectNode json = Json.NODES.objectNode();
    json.put("answer", answer.text());
    ArrayNode calls = json.putArray("tool_calls");
    for (Turn turn : answer.turns()) {
      if (turn instanceof Turn.ToolResult result) {
        ObjectNode call = calls.addObject();
        call.put("tool", functions.tool(result.call().name()).orElse(result.call().name()));
        call.set("arguments", result.call().arguments());
        call.set("result", result.result());
        call.put("failed", result.failed());
      }
    }
    return new Run(Answer.success(json, false), Optional.empty(), unused(scripted, testCase));
  }

  private static Optional<Mismatch> unused(ScriptedModel scripted, AgentCase testCase) {
    int scriptedTurns = testCase.model().size();
    return scripted.used() < scriptedTurns
        ? Optional.of(
            new Mismatch(
                "model",
                "the run ended after "
                    + scripted.used()
                    + " of "
                    + scriptedTurns
                    + " scripted turns",
                ""))
        : Optional.empty();
  }

  /** The agent's {@code max_steps}; no provider settings are needed, so no key is asked for. */
  private static int maxSteps(Agent agent, Environment environment) {
    try {
      return ModelSettings.of(agent.model(), environment.withFallback("svc-test")).maxSteps();
    } catch (RuntimeException e) {
      return ModelSettings.DEFAULT_MAX_STEPS;
    }
  }

  private static Headers headers(Map<String, String> headers) {
    List<String> pairs = new ArrayList<>();
    headers.forEach((name, value) -> {
      pairs.add(name);
      pairs.add(value);
    });
    return Headers.of(pairs.toArray(String[]::new));
  }
}
