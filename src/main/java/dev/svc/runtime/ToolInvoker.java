package dev.svc.runtime;

import dev.svc.auth.AuthPlugin;
import dev.svc.cache.ResultCache;
import dev.svc.call.AnswerHold;
import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.connector.Connector;
import dev.svc.connector.ResultMemory;
import dev.svc.model.Model;
import dev.svc.model.Tool;
import dev.svc.script.ScriptRunner;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Calls tools, for MCP calls and agent calls alike: the project's tools through the one {@link
 * ToolPipeline}, and the built-in {@link ToolSearch}. Beside the pipeline, the {@link CallObserver}
 * records each call's span, metric and audit line from what the pipeline says happened. Failures
 * the caller can fix come back as {@link ToolOutcome.Failure}; server faults are thrown as {@link
 * ToolServerException}, once observed.
 */
public final class ToolInvoker {
  private final Model model;

  /**
   * What a name calls: a tool of the project, or (empty) the built-in search. Made once, so that a
   * call does not wrap its tool again.
   */
  private final Map<String, Optional<Tool>> callable;

  private final ToolPipeline pipeline;
  private final CallObserver observer;

  ToolInvoker(
      Model model,
      Map<String, Connector> connectors,
      Map<String, AuthPlugin> auth,
      ScriptRunner scripts,
      ResultCache cache,
      CallObserver observer,
      AdapterFailureLog adapterFailures,
      PageCursors cursors) {
    this.model = model;
    Map<String, Optional<Tool>> byName = new HashMap<>();
    model.tools().forEach(tool -> byName.put(tool.name(), Optional.of(tool)));
    byName.putIfAbsent(ToolSearch.NAME, Optional.empty()); // the compiler reserves the name
    this.callable = Map.copyOf(byName);
    this.pipeline =
        new ToolPipeline(model.tools(), connectors, auth, scripts, cache, adapterFailures, cursors);
    this.observer = observer;
  }

  public Model model() {
    return model;
  }

  /** The project's tool of this name (the built-in {@code search} is not one). */
  public Optional<Tool> tool(String name) {
    return callable.getOrDefault(name, Optional.empty());
  }

  /** Whether the project has a tool of this name (the built-in {@code search} is not one). */
  public boolean has(String name) {
    return callable.getOrDefault(name, Optional.empty()).isPresent();
  }

  /**
   * Whether the credentials in {@code headers} make no caller of their own to the tool's auth
   * plugin, told before anything runs ({@link AuthPlugin#takesForAGuess}): its rate limit then
   * counts the call for its address.
   */
  public boolean takesForAGuess(Tool tool, Headers headers) {
    return pipeline.takesForAGuess(tool, headers);
  }

  /**
   * Calls a tool by name: traced (span {@code execute_tool <name>}, one child span per pipeline
   * stage), measured ({@code svc.tool.call.duration}) and audited.
   *
   * @throws UnknownToolException when no tool (not even {@code search}) has the name
   * @throws ToolServerException on a server fault
   */
  public ToolOutcome call(String name, JsonNode arguments, Caller caller) {
    Optional<Tool> tool = callable.get(name);
    if (tool == null) {
      throw new UnknownToolException(name);
    }
    ToolPipeline.Ran ran;
    try (CallObserver.Observation observation =
        observer.start(new CallObserver.Subject.ToolCall(name, tool, arguments, caller))) {
      ran =
          tool.isEmpty()
              ? new ToolPipeline.Ran.Answered(
                  ToolSearch.call(model.tools(), model.service().searchLimit(), arguments),
                  ToolPipeline.ANONYMOUS)
              : run(tool.get(), arguments, caller, observation);
      switch (ran) {
        case ToolPipeline.Ran.Answered(ToolOutcome.Success success, String principal) ->
            observation.end(CallObserver.Result.OK, Optional.empty(), principal);
        case ToolPipeline.Ran.Answered(ToolOutcome.Failure failure, String principal) ->
            observation.end(CallObserver.Result.ERROR, Optional.of(failure.message()), principal);
        case ToolPipeline.Ran.Faulted(ToolServerException fault, String principal) ->
            observation.end(CallObserver.Result.FAULT, Optional.of(fault.getMessage()), principal);
      }
    }
    return switch (ran) {
      case ToolPipeline.Ran.Answered answered -> answered.outcome();
      case ToolPipeline.Ran.Faulted faulted -> throw faulted.fault();
    };
  }

  /**
   * Runs the pipeline with an account of result memory of its own ({@link ResultMemory#CALL}): the
   * rows its statement reads stay counted against the process's budget until the call's answer is
   * written ({@link AnswerHold}), or until the call is done when no answer is being made on this
   * thread (an agent's tool call).
   */
  private ToolPipeline.Ran run(
      Tool tool, JsonNode arguments, Caller caller, CallObserver.Observation observation) {
    ResultMemory.Account memory = ResultMemory.process().open();
    boolean deferred = AnswerHold.defer(memory);
    try {
      return ScopedValue.where(ResultMemory.CALL, memory)
          .call(() -> pipeline.run(tool, arguments, caller, observation.span()));
    } finally {
      if (!deferred) {
        memory.close();
      }
    }
  }
}
