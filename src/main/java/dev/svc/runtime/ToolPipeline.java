package dev.svc.runtime;

import dev.svc.auth.AuthDecision;
import dev.svc.auth.AuthPlugin;
import dev.svc.cache.ResultCache;
import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.call.Headers;
import dev.svc.call.InputRequiredException;
import dev.svc.call.VerifiedToken;
import dev.svc.connector.Connector;
import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.connector.StatementFailedException;
import dev.svc.connector.StatementOptions;
import dev.svc.json.Json;
import dev.svc.json.JsonSchema;
import dev.svc.log.Log;
import dev.svc.model.Execution;
import dev.svc.model.ScriptRef;
import dev.svc.model.Tool;
import dev.svc.runtime.ScriptTelemetry.Stage;
import dev.svc.script.ScriptFailedException;
import dev.svc.script.ScriptRunner;
import dev.svc.script.ScriptTimeoutException;
import dev.svc.script.ScriptWaitsForClientException;
import dev.svc.telemetry.Span;
import dev.svc.telemetry.SpanKind;
import dev.svc.telemetry.Telemetry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one tool pipeline, one straight method in the order of the spec ({@link #run}): auth →
 * validate and defaults → confirm → input transform → cache lookup → handler or statement → output
 * transform → caps → cache store. Each stage but the caps has its own span. It returns what
 * happened and for whom; observing the call as a whole is {@link ToolInvoker}'s.
 *
 * <p>Caps and cursors (docs/results.md): a statement is asked for the rows after a cursor's
 * position, at most {@code max_rows + 1} of them (the probe row tells a cut result from one of
 * exactly the cap); the caps then apply to the final payload, and a cut page of a tool that offers
 * cursors gets the cursor of the next one. The cache keys a page by its position and holds it as
 * capped; its cursor is made afresh on every answer, so a cached page never hands out an expired
 * one.
 */
final class ToolPipeline {
  private static final Log LOG = Log.tagged("tool");

  /** Whom a call runs for when its tool has no auth plugin. */
  static final String ANONYMOUS = "anonymous";

  private final PreparedTools prepared;
  private final PageCursors cursors;

  private final Map<String, Connector> connectors;
  private final Map<String, AuthPlugin> auth;
  private final ScriptRunner scripts;
  private final ResultCache cache;
  private final AdapterFailureLog adapterFailures;

  ToolPipeline(
      List<Tool> tools,
      Map<String, Connector> connectors,
      Map<String, AuthPlugin> auth,
      ScriptRunner scripts,
      ResultCache cache,
      AdapterFailureLog adapterFailures,
      PageCursors cursors) {
    this.prepared = new PreparedTools(tools);
    this.cursors = cursors;
    this.connectors = Map.copyOf(connectors);
    this.auth = Map.copyOf(auth);
    this.scripts = scripts;
    this.cache = cache;
    this.adapterFailures = adapterFailures;
  }

  /**
   * What the pipeline made of one call, and whom auth let it through for ({@code anonymous} when
   * the tool has no auth plugin). A server fault is a value here too, observed like any other
   * ending before it is thrown to the caller.
   */
  sealed interface Ran {
    String principal();

    record Answered(ToolOutcome outcome, String principal) implements Ran {}

    record Faulted(ToolServerException fault, String principal) implements Ran {}
  }

  /**
   * One call going through the pipeline: the tool, the call's one deadline, who calls, and the
   * access token verified for it (by {@code server.auth} or the tool's {@code jwt} plugin).
   */
  private record Call(Tool tool, Deadline deadline, Caller caller, Optional<VerifiedToken> token) {}

  /**
   * The pipeline. A failure of a script or a connector is translated where it reaches the pipeline:
   * one the caller can fix (a script that threw, a rejected statement, a timeout) is a tool
   * failure, anything else a server fault.
   *
   * @param span the call's span, told about cache hits
   */
  Ran run(Tool tool, JsonNode arguments, Caller caller, Span span) {
    Deadline deadline = Deadline.after(tool.timeout());
    // 1. auth: who calls is the principal server.auth verified, if any, and whoever the tool's
    // own plugin lets in (both, when both are there: cached results stay apart per user); the
    // token whose claims the call may use is the one the plugin verified, else server.auth's
    Optional<VerifiedToken> token = caller.verified();
    Optional<String> identity = token.map(VerifiedToken::principalId);
    AuthPlugin plugin = auth.get(tool.name());
    if (plugin != null) {
      switch (authorize(plugin, caller)) {
        case AuthDecision.Deny deny -> {
          return failed("authentication failed: " + deny.reason(), identity);
        }
        case AuthDecision.Allow allow -> {
          identity = Optional.of(identity(identity, allow));
          if (allow.token().isPresent()) {
            token = allow.token();
          }
        }
      }
    }
    // a cached tool notes whether the call deals with its client: its result then is that
    // client's (answers, capabilities) and is not stored for others
    ClientContact contact = tool.cache().enabled() ? new ClientContact(caller.client()) : null;
    if (contact != null) {
      caller = caller.withClientRequests(contact);
    }
    Call call = new Call(tool, deadline, caller, token);
    // 2. validate, defaults
    ObjectNode inputs;
    Optional<String> cursor;
    switch (validate(tool, arguments)) {
      case InputValidator.Invalid invalid -> {
        return failed(invalid.message(), identity);
      }
      case InputValidator.Valid valid -> {
        inputs = valid.inputs();
        cursor = valid.cursor();
      }
    }
    try {
      // 2b. confirm: ask the user before anything of the tool runs
      Optional<String> refused = ConfirmStep.check(tool, inputs, caller, call.deadline());
      if (refused.isPresent()) {
        return failed(refused.get(), identity);
      }
      // 3. input transform
      JsonNode finalInputs = inputs;
      if (tool.inputMapper().isPresent()) {
        finalInputs = script(call, Stage.INPUT, tool.inputMapper().get(), "inputs", inputs);
        if (!finalInputs.isObject()) {
          return failed("the input transform must return an object of inputs", identity);
        }
      }
      // the page asked for: where the cursor, made for these same final inputs, left off
      Optional<String> canonical =
          tool.cache().enabled() || cursor.isPresent()
              ? Optional.of(Json.canonical(finalInputs))
              : Optional.empty();
      long position = 0;
      if (cursor.isPresent()) {
        switch (cursors.open(cursor.get(), tool.name(), canonical.orElseThrow())) {
          case PageCursors.Opened.Invalid invalid -> {
            return failed(invalid.message(), identity);
          }
          case PageCursors.Opened.Valid valid -> position = valid.position();
        }
      }
      // 4. cache lookup
      Optional<ResultCache.CacheKey> key =
          tool.cache().enabled()
              ? Optional.of(
                  new ResultCache.CacheKey(
                      tool.name(),
                      canonical.orElseThrow(),
                      identity.orElse("") + prepared.claimsKey(tool, call.token()),
                      position))
              : Optional.empty();
      if (key.isPresent()) {
        Optional<ResultCache.Cached> cached = lookup(key.get(), span);
        if (cached.isPresent()) {
          Optional<Truncation.Limit> cut = cached.get().cutBy().flatMap(Truncation.Limit::of);
          return new Ran.Answered(
              success(
                  tool,
                  cached.get().payload(),
                  Optional.empty(),
                  cut,
                  position,
                  canonical,
                  finalInputs),
              principal(identity));
        }
      }
      // 5. handler or statement
      caller.progress().report(0.5, "running " + tool.name());
      JsonNode result;
      switch (tool.execution()) {
        case Execution.Handler handler ->
            result = script(call, Stage.HANDLER, handler.script(), "inputs", finalInputs);
        case Execution.OnAdapter onAdapter -> {
          Connector connector = connectors.get(onAdapter.adapter());
          if (connector == null) {
            return unavailable(tool, "adapter `" + onAdapter.adapter() + "` is not open", identity);
          }
          switch (BoundValues.of(tool, finalInputs, prepared.boundInputs(tool), call.token())) {
            case BoundValues.Missing missing -> {
              return failed(
                  "the statement needs input `" + missing.input() + "`, which has no value",
                  identity);
            }
            case BoundValues.MissingClaim missing -> {
              return failed("the token carries no claim `" + missing.claim() + "`", identity);
            }
            case BoundValues.NoToken none -> {
              return failed(
                  "the statement binds the claim `"
                      + none.claim()
                      + "` of an access token, and the call carries none",
                  identity);
            }
            case BoundValues.Values values -> {
              List<StatementOptions.SessionSetting> settings = List.of();
              if (onAdapter.session().isPresent()) {
                switch (SessionValues.of(onAdapter.session().get(), call.token())) {
                  case SessionValues.Refused notMade -> {
                    return failed(notMade.message(), identity);
                  }
                  case SessionValues.Settings made -> settings = made.settings();
                }
              }
              result =
                  statement(
                      connector,
                      onAdapter,
                      values.values(),
                      new StatementOptions(
                          position, tool.caps().probe(), tool.readOnly(), settings),
                      call.deadline());
            }
          }
        }
      }
      // 6. output transform
      if (tool.outputMapper().isPresent()) {
        JsonNode results = result.isArray() ? result : Json.NODES.arrayNode().add(result);
        result = script(call, Stage.OUTPUT, tool.outputMapper().get(), "results", results);
      }
      // 7. caps: at most max_rows rows, whole rows within max_bytes of JSON
      switch (ResultCapper.cap(result, tool.caps())) {
        case ResultCapper.Capped.TooLarge tooLarge -> {
          return failed(tooLarge.message(), identity);
        }
        case ResultCapper.Capped.Kept kept -> {
          // 8. cache store (not a result made with this client's answers or capabilities)
          if (key.isPresent() && !contact.used()) {
            store(key.get(), kept, tool);
          }
          return new Ran.Answered(
              success(
                  tool, kept.payload(), kept.json(), kept.cut(), position, canonical, finalInputs),
              principal(identity));
        }
      }
    } catch (InputRequiredException e) {
      throw e; // not an ending: the call goes on with the retried request (2026-07-28)
    } catch (ScriptWaitsForClientException e) {
      throw new InputRequiredException();
    } catch (ScriptTimeoutException e) {
      return failed(e.messageFor(tool.timeout()), identity);
    } catch (StatementFailedException | ScriptFailedException e) {
      return failed(e.getMessage(), identity);
    } catch (ConnectorUnavailableException e) {
      return unavailable(tool, e, identity);
    } catch (RuntimeException e) {
      LOG.error("tool call failed unexpectedly", e, "tool", tool.name());
      return new Ran.Faulted(
          new ToolServerException("tool `" + tool.name() + "` failed unexpectedly", e),
          principal(identity));
    }
  }

  /**
   * A success as the caller sees it: a statement's rows under {@code rows}, other lists under
   * {@code result}; when a cap cut the page, what it cut and, for a tool that offers them, the
   * cursor of the page after it.
   *
   * @param position where this page starts
   * @param canonical the canonical JSON of the final inputs, when the call needed it already (else
   *     written here for a cursor: most calls need none)
   */
  private ToolOutcome.Success success(
      Tool tool,
      JsonNode payload,
      Optional<String> json,
      Optional<Truncation.Limit> cut,
      long position,
      Optional<String> canonical,
      JsonNode finalInputs) {
    ToolOutcome.Envelope envelope =
        tool.execution() instanceof Execution.OnAdapter && tool.outputMapper().isEmpty()
            ? ToolOutcome.Envelope.ROWS
            : ToolOutcome.Envelope.RESULT;
    Optional<Truncation> truncation =
        cut.map(limit ->
            new Truncation(
                payload.size(),
                limit,
                prepared.offersCursors(tool)
                    ? Optional.of(
                        cursors.mint(
                            tool.name(),
                            canonical.orElseGet(() -> Json.canonical(finalInputs)),
                            position + payload.size()))
                    : Optional.empty()));
    return new ToolOutcome.Success(payload, envelope, truncation, json);
  }

  private static String identity(Optional<String> verified, AuthDecision.Allow allow) {
    if (verified.isEmpty()) {
      return allow.identity();
    }
    // a jwt plugin behind server.auth lets in the same principal: say it once
    return allow.identity().equals(ANONYMOUS) || allow.identity().equals(verified.get())
        ? verified.get()
        : verified.get() + " " + allow.identity();
  }

  private static Ran failed(String message, Optional<String> identity) {
    return new Ran.Answered(new ToolOutcome.Failure(message), principal(identity));
  }

  private static String principal(Optional<String> identity) {
    return identity.orElse(ANONYMOUS);
  }

  /**
   * Whether the credentials in {@code headers} make no caller of their own to the auth plugin of
   * {@code tool} ({@link AuthPlugin#takesForAGuess}); false for a tool without one.
   */
  boolean takesForAGuess(Tool tool, Headers headers) {
    AuthPlugin plugin = auth.get(tool.name());
    return plugin != null && plugin.takesForAGuess(headers);
  }

  /** The tool's database cannot be reached: a server fault, its details in the log. */
  private Ran unavailable(Tool tool, ConnectorUnavailableException e, Optional<String> identity) {
    // one line per outage and summaries, not one per call: an outage under load is thousands
    if (tool.execution() instanceof Execution.OnAdapter onAdapter) {
      adapterFailures.failed(onAdapter.adapter(), tool.name(), e);
    } else {
      LOG.error("database unavailable", e, "tool", tool.name());
    }
    return new Ran.Faulted(
        new ToolServerException("the database of tool `" + tool.name() + "` is unavailable", e),
        principal(identity));
  }

  private Ran unavailable(Tool tool, String why, Optional<String> identity) {
    return unavailable(tool, new ConnectorUnavailableException(why), identity);
  }

  private static AuthDecision authorize(AuthPlugin plugin, Caller caller) {
    Span stage = Telemetry.tracer().start(SpanKind.INTERNAL, "auth");
    try {
      AuthDecision decision = plugin.authorize(caller);
      if (decision instanceof AuthDecision.Deny) {
        stage.fail("auth_denied", "refused"); // before end(): an ended span takes no status
      }
      return decision;
    } finally {
      stage.end();
    }
  }

  private InputValidator.Result validate(Tool tool, JsonNode arguments) {
    Span stage = Telemetry.tracer().start(SpanKind.INTERNAL, "validate");
    JsonSchema schema = prepared.argumentSchema(tool);
    InputValidator.Result validated =
        schema == null
            ? InputValidator.validate(tool, arguments)
            : InputValidator.validate(schema, arguments);
    if (validated instanceof InputValidator.Invalid) {
      stage.fail("invalid_input", "invalid arguments"); // before end(), as for auth
    }
    stage.end();
    return validated;
  }

  private Optional<ResultCache.Cached> lookup(ResultCache.CacheKey key, Span span) {
    Span stage = Telemetry.tracer().start(SpanKind.INTERNAL, "cache lookup");
    Optional<ResultCache.Cached> cached = cache.get(key);
    stage.set("svc.cache.hit", cached.isPresent()).end();
    span.set("svc.cache.hit", cached.isPresent());
    return cached;
  }

  private void store(ResultCache.CacheKey key, ResultCapper.Capped.Kept kept, Tool tool) {
    Span stage = Telemetry.tracer().start(SpanKind.INTERNAL, "cache store");
    int size = kept.json().orElseGet(() -> Json.MAPPER.writeValueAsString(kept.payload())).length();
    cache.put(
        key,
        new ResultCache.Cached(kept.payload(), kept.cut().map(Truncation.Limit::wireName)),
        tool.cache().ttl(),
        size);
    stage.end();
  }

  private JsonNode statement(
      Connector connector,
      Execution.OnAdapter onAdapter,
      Map<String, Object> values,
      StatementOptions options,
      Deadline deadline) {
    JsonNode result = DbTelemetry.execute(connector, onAdapter, values, deadline, options);
    adapterFailures.succeeded(onAdapter.adapter());
    return result;
  }

  /**
   * Runs one script stage of the pipeline in its own span, timed by its stage: the script gets
   * {@code {<field>: value, tool: <name>}}, and {@code auth: {subject, claims, scopes}} when the
   * call has a verified access token.
   */
  private JsonNode script(Call call, Stage stage, ScriptRef script, String field, JsonNode value) {
    ObjectNode payload = Json.NODES.objectNode();
    payload.set(field, value);
    payload.put("tool", call.tool().name());
    call.token().ifPresent(token -> payload.set("auth", ScriptAuth.of(token)));
    Span span = Telemetry.tracer().start(SpanKind.INTERNAL, stage.spanName);
    try {
      return ScriptTelemetry.call(
          scripts,
          stage,
          script,
          payload,
          call.tool().name(),
          call.deadline(),
          call.caller(),
          List.of());
    } catch (RuntimeException e) {
      span.fail(e.getClass().getSimpleName(), "the script failed");
      throw e;
    } finally {
      span.end();
    }
  }
}
