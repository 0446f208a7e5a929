package dev.svc.suite.run;

import dev.svc.agent.FunctionNames;
import dev.svc.agent.ModelClient;
import dev.svc.agent.ModelException;
import dev.svc.agent.ModelRequest;
import dev.svc.agent.ToolCall;
import dev.svc.agent.Turn;
import dev.svc.suite.AgentCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A model that answers with a test case's scripted turns, one per call, and never touches the
 * network. Asked for more turns than the case scripts, it says so ({@link ScriptEnded}); the runner
 * turns that into an error of the case.
 */
final class ScriptedModel implements ModelClient {
  private final List<AgentCase.ScriptedTurn> turns;
  private final FunctionNames functions;
  private int next;

  /** The agent asked for a turn the case does not script. */
  static final class ScriptEnded extends ModelException {
    private static final long serialVersionUID = 1L;

    ScriptEnded(int asked, int scripted) {
      super(
          "the agent asked the model for turn "
              + asked
              + ", but the case scripts "
              + scripted
              + (scripted == 1 ? " turn" : " turns")
              + " (end `model` with a turn that only has `text`)");
    }
  }

  /**
   * @param functions the function names the agent offers its tools under (a scripted call names a
   *     tool; the model answers with its function name, as a real one would)
   */
  ScriptedModel(List<AgentCase.ScriptedTurn> turns, FunctionNames functions) {
    this.turns = List.copyOf(turns);
    this.functions = functions;
  }

  @Override
  public Turn.Model generate(ModelRequest request, Consumer<String> text) {
    if (next >= turns.size()) {
      throw new ScriptEnded(next + 1, turns.size());
    }
    AgentCase.ScriptedTurn turn = turns.get(next++);
    List<ToolCall> calls = new ArrayList<>();
    for (AgentCase.ScriptedCall call : turn.toolCalls()) {
      String function;
      try {
        function = functions.function(call.tool());
      } catch (IllegalArgumentException notOffered) {
        function = call.tool(); // a tool the agent may not call: the loop refuses it
      }
      calls.add(new ToolCall("call-" + next + "-" + calls.size(), function, call.arguments()));
    }
    if (request.streaming() && !turn.text().isEmpty()) {
      text.accept(turn.text());
    }
    return new Turn.Model(turn.text(), calls, Optional.empty());
  }

  /** How many turns the agent asked for. */
  int used() {
    return next;
  }
}
