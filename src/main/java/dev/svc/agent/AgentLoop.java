package dev.svc.agent;

import dev.svc.call.Caller;
import dev.svc.json.JsonFootprint;
import dev.svc.log.Log;
import dev.svc.model.Agent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One agent task: the instruction as the system message, the conversation so far, the agent's
 * tools; the model is called until it answers without tool calls, at most {@code max_steps} times.
 * Tool calls run through the tool pipeline with the headers of the request that started the task;
 * their failures go back to the model as the tool's answer.
 *
 * <p>What the model asks for is bounded, since a user's message can steer it: at most {@link
 * #MAX_TOOL_CALLS_PER_STEP} tool calls run per step, and none once the task's tool results hold
 * {@link #MAX_TOOL_RESULT_BYTES}; a call past either is not run, and its answer tells the model
 * why, as a tool failure it can act on.
 */
public final class AgentLoop {
  private static final Log LOG = Log.tagged("agent");

  /** Tool calls run per model step, at most; the model's others get a "not run" answer. */
  public static final int MAX_TOOL_CALLS_PER_STEP = 32;

  /** The estimated heap of one task's tool results, past which no more tools run. */
  public static final long MAX_TOOL_RESULT_BYTES = 16L * 1024 * 1024;

  private final Agent agent;
  private final ModelClient model;
  private final AgentTools tools;
  private final int maxSteps;

  public AgentLoop(Agent agent, ModelClient model, AgentTools tools, int maxSteps) {
    this.agent = agent;
    this.model = model;
    this.tools = tools;
    this.maxSteps = maxSteps;
  }

  /**
   * The model's answer: the text of every step, in order (text said before a tool call is part of
   * it), and the turns this run added.
   */
  public record Answer(String text, List<Turn> turns) {}

  /**
   * Runs the task.
   *
   * @param conversation earlier turns of the conversation, ending with the new user message
   * @param streaming whether to stream text from the provider into {@code chunks}
   * @param chunks receives the answer's text as it is produced (streaming only)
   * @throws ModelException when a model call fails, or the steps run out
   * @throws ModelCallInterruptedException when the thread is interrupted (the task was canceled)
   */
  public Answer run(
      List<Turn> conversation, Caller caller, boolean streaming, Consumer<String> chunks) {
    List<Turn> turns = new ArrayList<>(conversation);
    List<Turn> added = new ArrayList<>();
    List<FunctionSpec> functions = tools.specs();
    StringBuilder answer = new StringBuilder();
    long resultBytes = 0;
    for (int step = 1; step <= maxSteps; step++) {
      if (Thread.currentThread().isInterrupted()) {
        throw new ModelCallInterruptedException();
      }
      boolean[] started = {false};
      int before = answer.length();
      Consumer<String> stepChunks =
          piece -> {
            if (!started[0] && before > 0) {
              chunks.accept("\n\n");
            }
            started[0] = true;
            chunks.accept(piece);
          };
      Turn.Model reply =
          ModelTelemetry.generate(
              agent,
              model,
              new ModelRequest(agent.instruction(), turns, functions, streaming),
              stepChunks);
      turns.add(reply);
      added.add(reply);
      if (!reply.text().isEmpty()) {
        if (!answer.isEmpty()) {
          answer.append("\n\n");
        }
        answer.append(reply.text());
      }
      if (reply.toolCalls().isEmpty()) {
        return new Answer(answer.toString(), added);
      }
      int calls = 0;
      for (ToolCall call : reply.toolCalls()) {
        if (Thread.currentThread().isInterrupted()) {
          throw new ModelCallInterruptedException();
        }
        Turn.ToolResult result;
        if (++calls > MAX_TOOL_CALLS_PER_STEP) {
          result =
              AgentTools.failed(
                  call,
                  "not run: one step may call at most "
                      + MAX_TOOL_CALLS_PER_STEP
                      + " tools; call the others in the next step, if they are still needed");
        } else if (resultBytes >= MAX_TOOL_RESULT_BYTES) {
          result =
              AgentTools.failed(
                  call,
                  "not run: this task's tool results already hold "
                      + MAX_TOOL_RESULT_BYTES / (1024 * 1024)
                      + " MiB; answer with what you have, or narrow the calls");
        } else {
          result = tools.call(call, caller);
          resultBytes += JsonFootprint.of(result.result());
        }
        LOG.debug(
            "agent tool call",
            "agent",
            agent.name(),
            "tool",
            call.name(),
            "outcome",
            result.failed() ? "error" : "ok");
        turns.add(result);
        added.add(result);
      }
    }
    throw new ModelException(
        "the agent used all "
            + maxSteps
            + " model steps without giving an answer (raise the model option `max_steps`)");
  }
}
