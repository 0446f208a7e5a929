package dev.svc.agent;

import dev.svc.auth.Principal;
import dev.svc.call.Caller;
import dev.svc.call.VerifiedToken;
import dev.svc.json.Json;
import dev.svc.model.Agent;
import dev.svc.model.RateLimit;
import dev.svc.model.Tool;
import dev.svc.model.ToolAccess;
import dev.svc.ratelimit.InMemoryRateLimiter;
import dev.svc.ratelimit.RateLimitDecision;
import dev.svc.ratelimit.RateLimiter;
import dev.svc.runtime.InputSchemas;
import dev.svc.runtime.ServerFault;
import dev.svc.runtime.ToolInvoker;
import dev.svc.runtime.ToolOutcome;
import dev.svc.runtime.ToolOutcomeText;
import dev.svc.runtime.ToolSearch;
import dev.svc.runtime.ToolServerException;
import dev.svc.runtime.UnknownToolException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The tools one agent may call (its effective tool access), offered to the model as functions, and
 * run through the tool pipeline with the caller's headers. Every failure, including a tool the
 * agent may not use, becomes the tool's answer so the model can recover.
 */
public final class AgentTools {
  private final Agent agent;
  private final ToolInvoker invoker;
  private final List<String> names;
  private final FunctionNames functions;
  private final RateLimiter limiter;

  public AgentTools(Agent agent, ToolInvoker invoker) {
    this(agent, invoker, new InMemoryRateLimiter());
  }

  /**
   * @param limiter counts calls of tools with a {@code rate_limit}: per tool and per principal of
   *     the request that started the run
   */
  public AgentTools(Agent agent, ToolInvoker invoker, RateLimiter limiter) {
    this.limiter = limiter;
    this.agent = agent;
    this.invoker = invoker;
    this.names = offered(agent.toolAccess(), invoker.model().tools());
    this.functions = new FunctionNames(names);
  }

  /**
   * Tool names the agent may call, sorted; under {@code allow_all} the built-in {@code search} too
   * (when the project has tools).
   */
  public static List<String> offered(ToolAccess access, List<Tool> tools) {
    List<String> names = new ArrayList<>();
    switch (access.mode()) {
      case ALLOW_ALL -> {
        tools.forEach(t -> names.add(t.name()));
        if (!tools.isEmpty()) {
          names.add(ToolSearch.NAME); // finding tools among none is no help
        }
      }
      case ALLOW_LIST -> names.addAll(access.tools());
      case ALLOW_NONE -> {}
    }
    return names.stream().sorted().distinct().toList();
  }

  public List<String> names() {
    return names;
  }

  public List<FunctionSpec> specs() {
    List<FunctionSpec> specs = new ArrayList<>();
    for (String name : names) {
      if (name.equals(ToolSearch.NAME)) {
        specs.add(
            new FunctionSpec(
                functions.function(name), ToolSearch.DESCRIPTION, ToolSearch.inputSchema()));
      } else {
        invoker
            .model()
            .tool(name)
            .ifPresent(tool ->
                specs.add(
                    new FunctionSpec(
                        functions.function(name), tool.description(), InputSchemas.of(tool))));
      }
    }
    return specs;
  }

  /** Runs one call the model asked for; never throws for a tool failure. */
  public Turn.ToolResult call(ToolCall call, Caller caller) {
    Optional<String> tool = functions.tool(call.name());
    if (tool.isEmpty() || !agent.toolAccess().allows(tool.get())) {
      return failed(
          call,
          "tool `"
              + call.name()
              + "` is not available to this agent; use only the functions you were given");
    }
    if (!call.arguments().isObject()) {
      return failed(call, "the arguments must be a JSON object");
    }
    Optional<RateLimitDecision> refused = refusal(tool.get(), caller);
    if (refused.isPresent()) {
      RateLimitDecision decision = refused.get();
      return failed(
          call,
          "rate limit exceeded: tool `"
              + tool.get()
              + "` allows "
              + decision.limit().requests()
              + " calls per "
              + decision.limit().per().toSeconds()
              + " s; retry after "
              + decision.retryAfterSeconds()
              + " s");
    }
    try {
      return switch (invoker.call(tool.get(), call.arguments(), caller)) {
        case ToolOutcome.Success success ->
            new Turn.ToolResult(call, ToolOutcomeText.forModel(success), false);
        case ToolOutcome.Failure failure -> failed(call, ToolOutcomeText.of(failure));
      };
    } catch (UnknownToolException e) {
      return failed(call, e.getMessage());
    } catch (ToolServerException e) {
      return failed(call, new ServerFault(e.getMessage(), caller.requestId()).text());
    }
  }

  /**
   * The refusal of a call by the tool's rate limit, counted for the principal of the access token
   * {@code server.auth} verified for the request that started the run, else for every caller
   * without one together (unverified credentials are not a caller: a new {@code X-API-Key} with
   * each request would escape the limit); empty when it may run.
   */
  private Optional<RateLimitDecision> refusal(String name, Caller caller) {
    Optional<RateLimit> limit = invoker.model().tool(name).flatMap(Tool::rateLimit);
    if (limit.isEmpty()) {
      return Optional.empty();
    }
    String principal =
        caller.verified().map(VerifiedToken::principalId).orElse(Principal.ANONYMOUS.id());
    RateLimitDecision decision = limiter.acquire(name + "\n" + principal, limit.get());
    return decision.allowed() ? Optional.empty() : Optional.of(decision);
  }

  /** The answer of a tool call that failed, or was not run, for {@code message}'s reason. */
  static Turn.ToolResult failed(ToolCall call, String message) {
    JsonNode error = Json.NODES.objectNode().put("error", message);
    return new Turn.ToolResult(call, error, true);
  }
}
