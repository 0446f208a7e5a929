package dev.svc.agent;

import dev.svc.call.Caller;
import dev.svc.model.Agent;
import dev.svc.model.MissingVariableException;
import dev.svc.project.Environment;
import dev.svc.ratelimit.InMemoryRateLimiter;
import dev.svc.ratelimit.RateLimiter;
import dev.svc.runtime.ServerFault;
import dev.svc.runtime.ToolInvoker;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs an agent on a conversation: makes the client of the agent's model from its settings, offers
 * the agent's tools and runs the {@link AgentLoop}. Every way a run ends is a value ({@link
 * Outcome}), so the protocol that owns the task only maps it to the task's state.
 */
public final class AgentRunner {
  private final Environment environment;
  private final RateLimiter limiter;

  /**
   * @param environment what the model settings' placeholders ({@code {{ env.X }}}) and key
   *     fallbacks are read from
   */
  public AgentRunner(Environment environment) {
    this(environment, new InMemoryRateLimiter());
  }

  /**
   * @param environment what the model settings' placeholders ({@code {{ env.X }}}) and key
   *     fallbacks are read from
   * @param limiter counts the agents' calls of tools with a {@code rate_limit}
   */
  public AgentRunner(Environment environment, RateLimiter limiter) {
    this.environment = environment;
    this.limiter = limiter;
  }

  /** How a run ended. */
  public sealed interface Outcome {
    /** The model answered: the text of every step, in order. */
    record Answered(String text) implements Outcome {}

    /** The thread was interrupted (the task was canceled, or the server is stopping). */
    record Stopped() implements Outcome {}

    /**
     * A failure the user can act on: the provider refused or was unreachable, a variable is unset,
     * the steps ran out. The message is safe to show.
     */
    record Failed(String message) implements Outcome {}

    /** A fault of svc itself (a bug): what the client is told, and the cause for the log. */
    record Faulted(ServerFault fault, RuntimeException cause) implements Outcome {}
  }

  /**
   * Runs the agent until it answers.
   *
   * @param tools the pipeline the agent's tool calls run through
   * @param conversation earlier turns of the conversation, ending with the new user message
   * @param caller the request that started the run (its headers go with every tool call)
   * @param streaming whether to stream the answer's text into {@code chunks}
   */
  public Outcome run(
      Agent agent,
      ToolInvoker tools,
      List<Turn> conversation,
      Caller caller,
      boolean streaming,
      Consumer<String> chunks) {
    try {
      ModelSettings settings = ModelSettings.of(agent.model(), environment);
      ModelClient client = ModelClients.create(settings, environment);
      AgentLoop loop =
          new AgentLoop(agent, client, new AgentTools(agent, tools, limiter), settings.maxSteps());
      return new Outcome.Answered(loop.run(conversation, caller, streaming, chunks).text());
    } catch (ModelCallInterruptedException e) {
      return new Outcome.Stopped();
    } catch (ModelException | MissingVariableException e) {
      return new Outcome.Failed(e.getMessage());
    } catch (RuntimeException e) {
      return new Outcome.Faulted(new ServerFault("internal error", caller.requestId()), e);
    }
  }
}
