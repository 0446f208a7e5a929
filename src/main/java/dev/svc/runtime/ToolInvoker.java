package dev.svc.runtime;

import dev.svc.auth.AuthDecision;
import dev.svc.auth.AuthPlugin;
import dev.svc.cache.ResultCache;
import dev.svc.call.Caller;
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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
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
  private final Map<String, Connector> connectors;
  private final Map<String, AuthPlugin> auth;
  private final ScriptRunner scripts;
  private final ResultCache cache;

  ToolInvoker(
      Model model,
      Map<String, Connector> connectors,
      Map<String, AuthPlugin> auth,
      ScriptRunner scripts,
      ResultCache cache) {
    this.model = model;
    this.toolsByName =
        model.tools().stream()
            .collect(java.util.stream.Collectors.toUnmodifiableMap(Tool::name, t -> t));
    this.connectors = Map.copyOf(connectors);
    this.auth = Map.copyOf(auth);
    this.scripts = scripts;
    this.cache = cache;
  }

  public Model model() {
    return model;
  }

  /**
   * Calls a tool by name.
   *
   * @throws UnknownToolException when no tool (not even {@code search}) has the name
   * @throws ToolServerException on a server fault
   */
  public ToolOutcome call(String name, JsonNode arguments, Caller caller) {
    long started = System.nanoTime();
    if (name.equals(ToolSearch.NAME)) {
      return search(arguments);
    }
    Tool tool = toolsByName.get(name);
    if (tool == null) {
      throw new UnknownToolException(name);
    }
    ToolOutcome outcome = run(tool, arguments, caller);
    if (LOG.isDebug()) {
      LOG.debug(
          "tool call",
          "tool",
          name,
          "ms",
          (System.nanoTime() - started) / 1_000_000,
          "outcome",
          outcome instanceof ToolOutcome.Success ? "ok" : "error");
    }
    return outcome;
  }

  private ToolOutcome run(Tool tool, JsonNode arguments, Caller caller) {
    Deadline deadline = Deadline.after(tool.timeout());
    Optional<String> identity = Optional.empty();
    AuthPlugin plugin = auth.get(tool.name());
    if (plugin != null) {
      switch (plugin.authorize(caller.headers())) {
        case AuthDecision.Deny deny -> {
          return new ToolOutcome.Failure("authentication failed: " + deny.reason());
        }
        case AuthDecision.Allow allow -> identity = Optional.of(allow.identity());
      }
    }
    ObjectNode inputs;
    switch (InputValidator.validate(tool, arguments)) {
      case InputValidator.Invalid invalid -> {
        return new ToolOutcome.Failure(invalid.message());
      }
      case InputValidator.Valid valid -> inputs = valid.inputs();
    }
    try {
      JsonNode finalInputs = inputs;
      if (tool.inputMapper().isPresent()) {
        finalInputs =
            script(tool, tool.inputMapper().get(), payload("inputs", inputs, tool), deadline);
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
        Optional<JsonNode> cached = cache.get(key);
        if (cached.isPresent()) {
          return new ToolOutcome.Success(cached.get());
        }
      }
      caller.progress().report(0.5, "running " + tool.name());
      JsonNode result = execute(tool, finalInputs, deadline);
      if (tool.outputMapper().isPresent()) {
        JsonNode results = result.isArray() ? result : Json.NODES.arrayNode().add(result);
        result =
            script(tool, tool.outputMapper().get(), payload("results", results, tool), deadline);
      }
      if (key != null) {
        cache.put(key, result, tool.cache().ttl(), Json.MAPPER.writeValueAsString(result).length());
      }
      return new ToolOutcome.Success(result);
    } catch (ScriptTimeoutException e) {
      return new ToolOutcome.Failure(
          "the script ran longer than " + ScriptTimeoutException.seconds(tool.timeout()));
    } catch (StatementFailedException | ScriptFailedException e) {
      return new ToolOutcome.Failure(e.getMessage());
    } catch (MissingValueException e) {
      return new ToolOutcome.Failure(e.getMessage());
    } catch (ConnectorUnavailableException e) {
      LOG.error("database unavailable", e, "tool", tool.name());
      throw new ToolServerException("the database of tool `" + tool.name() + "` is unavailable", e);
    } catch (RuntimeException e) {
      LOG.error("tool call failed unexpectedly", e, "tool", tool.name());
      throw new ToolServerException("tool `" + tool.name() + "` failed unexpectedly", e);
    }
  }

  private JsonNode execute(Tool tool, JsonNode inputs, Deadline deadline) {
    return switch (tool.execution()) {
      case Execution.Handler handler ->
          script(tool, handler.script(), payload("inputs", inputs, tool), deadline);
      case Execution.OnAdapter onAdapter -> {
        Connector connector = connectors.get(onAdapter.adapter());
        if (connector == null) {
          throw new ConnectorUnavailableException(
              "adapter `" + onAdapter.adapter() + "` is not open");
        }
        List<String> names = onAdapter.statement().inputNames();
        Map<String, Object> values =
            switch (BoundValues.of(tool, inputs, names)) {
              case BoundValues.Values v -> v.values();
              case BoundValues.Missing missing -> throw new MissingValueException(missing.input());
            };
        yield connector.execute(onAdapter.statement(), values, deadline.remaining());
      }
    };
  }

  private JsonNode script(Tool tool, ScriptRef script, ObjectNode payload, Deadline deadline) {
    return scripts.call(script, payload, tool.name(), deadline.remaining());
  }

  private static ObjectNode payload(String field, JsonNode value, Tool tool) {
    ObjectNode payload = Json.NODES.objectNode();
    payload.set(field, value);
    payload.put("tool", tool.name());
    return payload;
  }

  private ToolOutcome search(JsonNode arguments) {
    JsonNode query = arguments == null ? null : arguments.get("query");
    if (query == null || !query.isString() || query.asString().isBlank()) {
      return new ToolOutcome.Failure("invalid arguments: `query` must be a non-empty string");
    }
    int limit = model.service().searchLimit();
    JsonNode requested = arguments.get("limit");
    if (requested != null && !requested.isNull()) {
      if (!requested.canConvertToInt() || requested.asInt() < 1) {
        return new ToolOutcome.Failure("invalid arguments: `limit` must be a positive integer");
      }
      limit = Math.min(limit, requested.asInt());
    }
    ArrayNode results = Json.NODES.arrayNode();
    for (ToolSearch.Match match : ToolSearch.rank(model.tools(), query.asString(), limit)) {
      ObjectNode entry = results.addObject();
      entry.put("name", match.tool().name());
      entry.put("description", match.tool().description());
      entry.put("score", match.score());
      entry.set("inputSchema", InputSchemas.of(match.tool()));
    }
    return new ToolOutcome.Success(results);
  }

  /** A time limit shared by every stage of one call. */
  record Deadline(long endNanos) {
    static Deadline after(Duration timeout) {
      return new Deadline(System.nanoTime() + timeout.toNanos());
    }

    Duration remaining() {
      return Duration.ofNanos(Math.max(1_000_000, endNanos - System.nanoTime()));
    }
  }

  /** A placeholder names an input that has no value. */
  private static final class MissingValueException extends dev.svc.SvcException {
    MissingValueException(String input) {
      super("the statement needs input `" + input + "`, which has no value");
    }
  }
}
