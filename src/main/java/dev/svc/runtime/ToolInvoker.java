package dev.svc.runtime;

import dev.svc.audit.AuditRecord;
import dev.svc.audit.AuditTrail;
import dev.svc.auth.AuthDecision;
import dev.svc.auth.AuthPlugin;
import dev.svc.cache.ResultCache;
import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.connector.StatementFailedException;
import dev.svc.log.Log;
import dev.svc.model.Execution;
import dev.svc.model.Model;
import dev.svc.model.ScriptRef;
import dev.svc.model.Tool;
import dev.svc.script.ScriptFailedException;
import dev.svc.script.ScriptRunner;
import dev.svc.script.ScriptTimeoutException;
import dev.svc.telemetry.Scope;
import dev.svc.telemetry.Span;
import dev.svc.telemetry.SpanKind;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.telemetry.Telemetry;
import dev.svc.telemetry.Tracer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs the one tool pipeline, for MCP calls and agent calls alike: resolve → auth → validate and
 * defaults → input transform → cache lookup → handler or statement → output transform → cache
 * store. Failures the caller can fix come back as {@link ToolOutcome.Failure}; server faults are
 * thrown as {@link ToolServerException}.
 */
public final class ToolInvoker {
  private static final Log LOG = Log.tagged("tool");

  private final Model model;
  private final Map<String, Tool> toolsByName;

  /** Per tool that runs a statement: the inputs it binds, worked out once, not on every call. */
  private final Map<String, List<String>> boundInputs;

  private final Map<String, Connector> connectors;
  private final Map<String, AuthPlugin> auth;
  private final ScriptRunner scripts;
  private final ResultCache cache;
  private final AuditTrail audit;
  private final AdapterFailureLog adapterFailures;

  ToolInvoker(
      Model model,
      Map<String, Connector> connectors,
      Map<String, AuthPlugin> auth,
      ScriptRunner scripts,
      ResultCache cache,
      AuditTrail audit,
      AdapterFailureLog adapterFailures) {
    this.model = model;
    this.toolsByName =
        model.tools().stream()
            .collect(java.util.stream.Collectors.toUnmodifiableMap(Tool::name, t -> t));
    Map<String, List<String>> bound = new java.util.HashMap<>();
    for (Tool tool : model.tools()) {
      if (tool.execution() instanceof Execution.OnAdapter onAdapter) {
        bound.put(tool.name(), onAdapter.statement().inputNames());
      }
    }
    this.boundInputs = Map.copyOf(bound);
    this.connectors = Map.copyOf(connectors);
    this.auth = Map.copyOf(auth);
    this.scripts = scripts;
    this.cache = cache;
    this.audit = audit;
    this.adapterFailures = adapterFailures;
  }

  public Model model() {
    return model;
  }

  /** Whether the project has a tool of this name (the built-in {@code search} is not one). */
  public boolean has(String name) {
    return toolsByName.containsKey(name);
  }

  /**
   * Calls a tool by name: traced (span {@code execute_tool <name>}, one child span per pipeline
   * stage), measured ({@code svc.tool.call.duration}) and audited.
   *
   * @throws UnknownToolException when no tool (not even {@code search}) has the name
   * @throws ToolServerException on a server fault
   */
  @SuppressWarnings("try") // the scope makes the tool's span the parent of its stages' spans
  public ToolOutcome call(String name, JsonNode arguments, Caller caller) {
    long started = System.nanoTime();
    Tool tool = toolsByName.get(name);
    if (tool == null && !name.equals(ToolSearch.NAME)) {
      throw new UnknownToolException(name);
    }
    Span span = Telemetry.tracer().start(SpanKind.INTERNAL, "execute_tool", name);
    if (span.isRecording()) {
      span.set("gen_ai.operation.name", "execute_tool")
          .set("gen_ai.tool.name", name)
          .set("gen_ai.tool.type", tool == null ? "extension" : toolType(tool))
          .set("svc.request_id", caller.requestId());
    }
    String[] identity = {"anonymous"};
    ToolOutcome outcome;
    try (Scope scope = span.activate()) {
      outcome =
          tool == null
              ? ToolSearch.call(model.tools(), model.service().searchLimit(), arguments)
              : run(tool, arguments, caller, span, identity);
    } catch (ToolServerException e) {
      span.fail("server_error", e.getMessage());
      span.end();
      finish(
          name,
          tool,
          arguments,
          caller,
          identity[0],
          "fault",
          Optional.of(e.getMessage()),
          started);
      throw e;
    }
    Optional<String> error = Optional.empty();
    if (outcome instanceof ToolOutcome.Failure failure) {
      span.fail("tool_error", failure.message());
      error = Optional.of(failure.message());
    }
    span.end();
    finish(
        name,
        tool,
        arguments,
        caller,
        identity[0],
        error.isEmpty() ? "ok" : "error",
        error,
        started);
    return outcome;
  }

  /** Metric, debug line and audit record of a finished call. */
  private void finish(
      String name,
      Tool tool,
      JsonNode arguments,
      Caller caller,
      String identity,
      String outcome,
      Optional<String> error,
      long started) {
    long nanos = System.nanoTime() - started;
    String errorType =
        switch (outcome) {
          case "ok" -> "";
          case "error" -> "tool_error";
          default -> "server_error";
        };
    SvcMetrics.TOOL_DURATION.record(nanos / 1e9, name, errorType);
    if (LOG.isDebug()) {
      LOG.debug("tool call", "tool", name, "ms", nanos / 1_000_000, "outcome", outcome);
    }
    if (audit.enabled()) {
      audit.record(
          new AuditRecord.ToolCall(
              Instant.now(),
              caller.requestId(),
              identity,
              caller.via(),
              name,
              AuditArguments.redact(Optional.ofNullable(tool), arguments),
              outcome,
              error,
              nanos / 1e6));
    }
  }

  private static String toolType(Tool tool) {
    return tool.execution() instanceof Execution.OnAdapter ? "datastore" : "function";
  }

  private ToolOutcome run(
      Tool tool, JsonNode arguments, Caller caller, Span span, String[] identityOut) {
    Tracer tracer = Telemetry.tracer();
    Deadline deadline = Deadline.after(tool.timeout());
    Optional<String> identity = Optional.empty();
    AuthPlugin plugin = auth.get(tool.name());
    if (plugin != null) {
      Span stage = tracer.start(SpanKind.INTERNAL, "auth");
      AuthDecision decision;
      try {
        decision = plugin.authorize(caller);
        if (decision instanceof AuthDecision.Deny) {
          stage.fail("auth_denied", "refused"); // before end(): an ended span takes no status
        }
      } finally {
        stage.end();
      }
      switch (decision) {
        case AuthDecision.Deny deny -> {
          return new ToolOutcome.Failure("authentication failed: " + deny.reason());
        }
        case AuthDecision.Allow allow -> {
          identity = Optional.of(allow.identity());
          identityOut[0] = allow.identity();
        }
      }
    }
    ObjectNode inputs;
    Span validation = tracer.start(SpanKind.INTERNAL, "validate");
    InputValidator.Result validated = InputValidator.validate(tool, arguments);
    validation.end();
    switch (validated) {
      case InputValidator.Invalid invalid -> {
        validation.fail("invalid_input", "invalid arguments");
        return new ToolOutcome.Failure(invalid.message());
      }
      case InputValidator.Valid valid -> inputs = valid.inputs();
    }
    try {
      JsonNode finalInputs = inputs;
      if (tool.inputMapper().isPresent()) {
        finalInputs =
            script(
                tool,
                ScriptTelemetry.Stage.INPUT,
                tool.inputMapper().get(),
                payload("inputs", inputs, tool),
                deadline,
                caller);
        if (!finalInputs.isObject()) {
          return new ToolOutcome.Failure("the input transform must return an object of inputs");
        }
      }
      ResultCache.CacheKey key =
          tool.cache().enabled()
              ? new ResultCache.CacheKey(
                  tool.name(), Json.canonical(finalInputs), identity.orElse(""))
              : null;
      if (key != null) {
        Span lookup = tracer.start(SpanKind.INTERNAL, "cache lookup");
        Optional<JsonNode> cached = cache.get(key);
        lookup.set("svc.cache.hit", cached.isPresent()).end();
        span.set("svc.cache.hit", cached.isPresent());
        if (cached.isPresent()) {
          return new ToolOutcome.Success(cached.get());
        }
      }
      caller.progress().report(0.5, "running " + tool.name());
      JsonNode result = execute(tool, finalInputs, deadline, caller);
      if (tool.outputMapper().isPresent()) {
        JsonNode results = result.isArray() ? result : Json.NODES.arrayNode().add(result);
        result =
            script(
                tool,
                ScriptTelemetry.Stage.OUTPUT,
                tool.outputMapper().get(),
                payload("results", results, tool),
                deadline,
                caller);
      }
      if (key != null) {
        Span store = tracer.start(SpanKind.INTERNAL, "cache store");
        cache.put(key, result, tool.cache().ttl(), Json.MAPPER.writeValueAsString(result).length());
        store.end();
      }
      return new ToolOutcome.Success(result);
    } catch (ScriptTimeoutException e) {
      return new ToolOutcome.Failure(e.messageFor(tool.timeout()));
    } catch (StatementFailedException | ScriptFailedException e) {
      return new ToolOutcome.Failure(e.getMessage());
    } catch (MissingValueException e) {
      return new ToolOutcome.Failure(e.getMessage());
    } catch (ConnectorUnavailableException e) {
      // one line per outage and summaries, not one per call: an outage under load is thousands
      if (tool.execution() instanceof Execution.OnAdapter onAdapter) {
        adapterFailures.failed(onAdapter.adapter(), tool.name(), e);
      } else {
        LOG.error("database unavailable", e, "tool", tool.name());
      }
      throw new ToolServerException("the database of tool `" + tool.name() + "` is unavailable", e);
    } catch (RuntimeException e) {
      LOG.error("tool call failed unexpectedly", e, "tool", tool.name());
      throw new ToolServerException("tool `" + tool.name() + "` failed unexpectedly", e);
    }
  }

  private JsonNode execute(Tool tool, JsonNode inputs, Deadline deadline, Caller caller) {
    return switch (tool.execution()) {
      case Execution.Handler handler ->
          script(
              tool,
              ScriptTelemetry.Stage.HANDLER,
              handler.script(),
              payload("inputs", inputs, tool),
              deadline,
              caller);
      case Execution.OnAdapter onAdapter -> {
        Connector connector = connectors.get(onAdapter.adapter());
        if (connector == null) {
          throw new ConnectorUnavailableException(
              "adapter `" + onAdapter.adapter() + "` is not open");
        }
        List<String> names = boundInputs.get(tool.name());
        Map<String, Object> values =
            switch (BoundValues.of(tool, inputs, names)) {
              case BoundValues.Values v -> v.values();
              case BoundValues.Missing missing -> throw new MissingValueException(missing.input());
            };
        JsonNode result = DbTelemetry.execute(connector, onAdapter, values, deadline);
        adapterFailures.succeeded(onAdapter.adapter());
        yield result;
      }
    };
  }

  /** Runs one script stage of the pipeline in its own span, timed by its stage. */
  private JsonNode script(
      Tool tool,
      ScriptTelemetry.Stage stage,
      ScriptRef script,
      ObjectNode payload,
      Deadline deadline,
      Caller caller) {
    Span span = Telemetry.tracer().start(SpanKind.INTERNAL, stage.spanName);
    try {
      return ScriptTelemetry.call(scripts, stage, script, payload, tool.name(), deadline, caller);
    } catch (RuntimeException e) {
      span.fail(e.getClass().getSimpleName(), "the script failed");
      throw e;
    } finally {
      span.end();
    }
  }

  private static ObjectNode payload(String field, JsonNode value, Tool tool) {
    ObjectNode payload = Json.NODES.objectNode();
    payload.set(field, value);
    payload.put("tool", tool.name());
    return payload;
  }

  /** A placeholder names an input that has no value. */
  private static final class MissingValueException extends dev.svc.SvcException {
    MissingValueException(String input) {
      super("the statement needs input `" + input + "`, which has no value");
    }
  }
}
