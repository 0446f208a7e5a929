package dev.svc.suite;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * One task for an agent with a scripted model, and what the run must end with. The answer checked
 * is {@code {"answer": …, "tool_calls": [{"tool", "arguments", "result", "failed"}, …]}}.
 *
 * @param agent the name of the agent
 * @param message the user's message
 * @param headers the headers of the request that starts the task
 * @param model the model's answers, one per model call
 */
public record AgentCase(
    String agent,
    String name,
    Origin origin,
    String message,
    Map<String, String> headers,
    List<ScriptedTurn> model,
    List<Expectation> expectations)
    implements TestCase {
  public AgentCase {
    headers = Map.copyOf(headers);
    model = List.copyOf(model);
    expectations = List.copyOf(expectations);
  }

  /** One scripted answer of the model: text, tool calls, or both. */
  public record ScriptedTurn(String text, List<ScriptedCall> toolCalls) {
    public ScriptedTurn {
      toolCalls = List.copyOf(toolCalls);
    }
  }

  /** A tool call of the scripted model, by tool name. */
  public record ScriptedCall(String tool, JsonNode arguments) {}
}
