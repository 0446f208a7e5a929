package dev.svc.agent;

import java.util.List;

/**
 * One model call.
 *
 * @param system the agent's instruction, sent as the system message
 * @param turns the conversation so far, oldest first
 * @param functions the tools the model may call; empty for none
 * @param streaming whether to ask the provider for a stream of text chunks
 */
public record ModelRequest(
    String system, List<Turn> turns, List<FunctionSpec> functions, boolean streaming) {
  public ModelRequest {
    turns = List.copyOf(turns);
    functions = List.copyOf(functions);
  }
}
