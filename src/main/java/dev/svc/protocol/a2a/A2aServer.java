package dev.svc.protocol.a2a;

import dev.svc.auth.OAuthPolicy;
import dev.svc.auth.Principal;
import dev.svc.call.Caller;
import dev.svc.log.Log;
import dev.svc.log.LogContext;
import dev.svc.model.Agent;
import dev.svc.net.HostResolver;
import dev.svc.project.Environment;
import dev.svc.protocol.EventSink;
import dev.svc.protocol.HttpCall;
import dev.svc.protocol.HttpReply;
import dev.svc.protocol.jsonrpc.Dispatcher;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcCodec;
import dev.svc.protocol.jsonrpc.JsonRpcError;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.protocol.jsonrpc.JsonRpcMessage;
import dev.svc.protocol.jsonrpc.MethodReply;
import dev.svc.protocol.jsonrpc.ResultStream;
import dev.svc.ratelimit.InMemoryRateLimiter;
import dev.svc.ratelimit.RateLimiter;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.runtime.ServerFault;
import dev.svc.telemetry.SvcMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A2A v1 over JSON-RPC 2.0 and SSE for every agent (docs/decisions.md "A2A v1"): {@code GET
 * /agent/{name}/.well-known/agent-card.json} answers the card, {@code POST /agent/{name}} the
 * methods. The agent is looked up in the current model on every request, so a reload adds, removes
 * and changes agents at once; a task keeps the definition it started with. {@code GET
 * /.well-known/agent-card.json} at the host root (A2A v1 §8.2) answers the card of the project's
 * only agent, or a 404 naming every agent's card URL when there are several.
 */
public final class A2aServer implements AutoCloseable {
  private static final Log LOG = Log.tagged("a2a");
  public static final String PROTOCOL_VERSION = "1.0";
  public static final List<String> SUPPORTED_VERSIONS = List.of(PROTOCOL_VERSION);
  public static final String VERSION_HEADER = "A2A-Version";
  public static final String CARD_PATH = "/.well-known/agent-card.json";
  private static final String JSON = "application/json";

  private final Supplier<ProjectRuntime> runtime;
  private final AgentTasks tasks;
  private final TaskFollowers followers = new TaskFollowers();
  private final PushNotifier push;
  private final TaskStore store;
  private final Dispatcher<A2aCall> dispatcher;
  private final Optional<OAuthPolicy> auth;

  /**
   * @param keepAlive how often an idle stream gets an SSE comment
   * @param store where tasks live
   * @param retry how push notifications are retried
   * @param clock the time of status changes (millisecond precision)
   * @param hosts resolves the host names of push-notification URLs
   * @param maxRunning how many tasks run at once ({@code agents.tasks.max_running})
   * @param maxWaiting how many more wait for a turn ({@code agents.tasks.max_waiting})
   */
  public record Settings(
      Duration keepAlive,
      TaskStore store,
      PushNotifier.Retry retry,
      Clock clock,
      HostResolver hosts,
      int maxRunning,
      int maxWaiting) {
    public Settings(
        Duration keepAlive,
        TaskStore store,
        PushNotifier.Retry retry,
        Clock clock,
        HostResolver hosts) {
      this(
          keepAlive,
          store,
          retry,
          clock,
          hosts,
          RunSlots.Limits.DEFAULTS.running(),
          RunSlots.Limits.DEFAULTS.waiting());
    }

    public Settings(Duration keepAlive, TaskStore store, PushNotifier.Retry retry, Clock clock) {
      this(keepAlive, store, retry, clock, HostResolver.SYSTEM);
    }

    /** The same settings with another task store. */
    public Settings withStore(TaskStore store) {
      return new Settings(keepAlive, store, retry, clock, hosts, maxRunning, maxWaiting);
    }

    /** The same settings with other bounds on the tasks run and waiting at once. */
    public Settings withRunLimits(int maxRunning, int maxWaiting) {
      return new Settings(keepAlive, store, retry, clock, hosts, maxRunning, maxWaiting);
    }

    public static Settings defaults() {
      return new Settings(
          Duration.ofSeconds(15),
          new InMemoryTaskStore(),
          PushNotifier.Retry.DEFAULT,
          Clock.tick(Clock.systemUTC(), Duration.ofMillis(1)));
    }
  }

  public A2aServer(Supplier<ProjectRuntime> runtime, Environment environment, Settings settings) {
    this(runtime, environment, settings, new InMemoryRateLimiter());
  }

  public A2aServer(
      Supplier<ProjectRuntime> runtime,
      Environment environment,
      Settings settings,
      RateLimiter limiter) {
    this(runtime, environment, settings, limiter, Optional.empty());
  }

  /**
   * @param limiter counts the agents' calls of tools with a {@code rate_limit} (shared with MCP)
   * @param auth {@code server.auth} (its placeholders filled in), which the cards advertise
   */
  public A2aServer(
      Supplier<ProjectRuntime> runtime,
      Environment environment,
      Settings settings,
      RateLimiter limiter,
      Optional<OAuthPolicy> auth) {
    this.runtime = runtime;
    this.auth = auth;
    // the current model's settings, so a reload applies to the next check and delivery
    PushDestinations destinations =
        new PushDestinations(
            () -> runtime.get().model().service().pushNotifications(), settings.hosts());
    this.push = new PushNotifier(settings.retry(), destinations);
    this.store = settings.store();
    this.tasks =
        new AgentTasks(
            settings.store(),
            push,
            environment,
            settings.clock(),
            limiter,
            new RunSlots.Limits(settings.maxRunning(), settings.maxWaiting()));
    this.dispatcher =
        new Dispatcher<>(
            new A2aMethods(tasks, destinations, settings.keepAlive(), auth, followers).handlers());
  }

  public HttpReply handle(HttpCall http) {
    if (http.path().equals(CARD_PATH)) {
      return rootCard(http);
    }
    String rest = http.path().substring("/agent/".length());
    int slash = rest.indexOf('/');
    String name = slash < 0 ? rest : rest.substring(0, slash);
    String sub = slash < 0 ? "" : rest.substring(slash);
    ProjectRuntime current = runtime.get();
    Optional<Agent> agent = current.model().agent(name);
    if (agent.isEmpty()) {
      return HttpReply.error(404, Map.of(), "no agent is named `" + name + "`");
    }
    if (sub.equals(CARD_PATH)) {
      if (!http.method().equals("GET") && !http.method().equals("HEAD")) {
        return HttpReply.error(
            405, Map.of("Allow", "GET"), "Method not allowed: GET the agent card");
      }
      return card(agent.get(), current, http);
    }
    if (!sub.isEmpty() && !sub.equals("/")) {
      return HttpReply.error(
          404,
          Map.of(),
          "not found: "
              + http.path()
              + " (an agent serves POST /agent/"
              + name
              + " and GET /agent/"
              + name
              + CARD_PATH
              + ")");
    }
    if (!http.method().equals("POST")) {
      return HttpReply.error(
          405,
          Map.of("Allow", "POST"),
          "Method not allowed: POST JSON-RPC to /agent/"
              + name
              + ", or GET its card at "
              + CARD_PATH);
    }
    return post(http, new A2aCall(agent.get(), current, http, caller(http), principal(http)));
  }

  /**
   * The well-known card at the host root, where clients such as a2a-java look by default: the card
   * of the one agent (the same answer as its own card URL), a 404 listing the agents' card URLs
   * when there are several (a host has one well-known card), a plain 404 when there are none.
   */
  private HttpReply rootCard(HttpCall http) {
    if (!http.method().equals("GET") && !http.method().equals("HEAD")) {
      return HttpReply.error(405, Map.of("Allow", "GET"), "Method not allowed: GET the agent card");
    }
    ProjectRuntime current = runtime.get();
    List<Agent> agents = current.model().agents();
    return switch (agents.size()) {
      case 0 ->
          HttpReply.error(
              404, Map.of(), "not found: " + CARD_PATH + " (this project has no agents)");
      case 1 -> card(agents.getFirst(), current, http);
      default ->
          new HttpReply.Body(
              404, Map.of(), JSON, JsonRpcCodec.bytes(AgentCards.index(agents, http.baseUrl())));
    };
  }

  /** Public even with {@code server.auth}: it is where a client learns how to authenticate. */
  private HttpReply card(Agent agent, ProjectRuntime current, HttpCall http) {
    ObjectNode card =
        AgentCards.card(
            agent, current.model(), http.baseUrl(), AgentCards.tools(agent, current.model()), auth);
    return new HttpReply.Body(200, Map.of(), JSON, JsonRpcCodec.bytes(card));
  }

  private static Caller caller(HttpCall http) {
    return new Caller(http.requestId(), http.headers(), Optional.empty(), http.verified());
  }

  /**
   * Whose tasks the request sees: the verified token's subject with {@code server.auth}, else the
   * principal its credentials make.
   */
  private static Principal principal(HttpCall http) {
    return http.principal();
  }

  private HttpReply post(HttpCall http, A2aCall call) {
    String type = http.headers().first("content-type").orElse("").toLowerCase(Locale.ROOT);
    if (!type.isEmpty() && !type.contains("json")) {
      return error(
          415,
          Optional.empty(),
          JsonRpcError.of(
              ErrorCodes.INVALID_REQUEST,
              "Unsupported Media Type: send JSON-RPC with Content-Type: application/json"));
    }
    JsonRpcMessage.Request request;
    switch (JsonRpcCodec.parse(http.body())) {
      case JsonRpcCodec.Invalid invalid -> {
        return error(200, invalid.id(), invalid.error());
      }
      case JsonRpcCodec.Message(JsonRpcMessage.Request r) -> request = r;
      case JsonRpcCodec.Message ignored -> {
        return new HttpReply.Empty(202, versionHeader()); // A2A has no notifications
      }
    }
    Optional<JsonNode> id = Optional.of(request.id());
    String version =
        http.headers()
            .first(VERSION_HEADER)
            .map(String::strip)
            .filter(v -> !v.isEmpty())
            .or(() -> http.queryParameter(VERSION_HEADER).map(String::strip))
            .filter(v -> !v.isEmpty())
            .orElse(PROTOCOL_VERSION); // docs/decisions.md "A2A v1": a missing version means 1.0
    if (!SUPPORTED_VERSIONS.contains(version) && !version.equals("1")) {
      return error(200, id, A2aErrors.versionNotSupported(version).error());
    }
    return ScopedValue.where(LogContext.REQUEST_ID, http.requestId())
        .call(() -> dispatch(call, request));
  }

  private HttpReply dispatch(A2aCall call, JsonRpcMessage.Request request) {
    Optional<JsonNode> id = Optional.of(request.id());
    Optional<JsonRpcException> renamed = A2aMethods.renamedInV1(request.method());
    if (renamed.isPresent()) {
      return error(200, id, renamed.get().error());
    }
    try {
      return switch (dispatcher.dispatch(call, request)) {
        case MethodReply.Result result -> json(JsonRpcCodec.result(request.id(), result.result()));
        case MethodReply.Stream stream ->
            new HttpReply.Stream(
                200,
                versionHeader(),
                sink -> stream.writer().accept(new DataFrames(request.id(), sink)));
      };
    } catch (JsonRpcException e) {
      return error(200, id, e.error());
    } catch (TaskStoreFullException e) {
      // counted, not logged at warn: a client sending large tasks in a loop would flood the log
      SvcMetrics.HTTP_REFUSALS.increment("task_store_full");
      LOG.debug("task refused: no room for a new task", "agent", call.agent().name());
      return error(200, id, A2aErrors.storeFull(e.getMessage()).error());
    } catch (TooManyTasksException e) {
      SvcMetrics.HTTP_REFUSALS.increment("too_many_tasks");
      LOG.debug("task refused: too many tasks", "agent", call.agent().name());
      return error(200, id, A2aErrors.tooManyTasks(e.getMessage()).error());
    } catch (TaskStoreException e) {
      LOG.error(
          "A2A request failed: task store unavailable",
          e,
          "method",
          request.method(),
          "agent",
          call.agent().name());
      return error(
          200,
          id,
          A2aErrors.storeUnavailable(
                  new ServerFault("task store unavailable", call.http().requestId()))
              .error());
    } catch (RuntimeException e) {
      LOG.error("A2A request failed", e, "method", request.method(), "agent", call.agent().name());
      return error(
          200,
          id,
          A2aErrors.internal(new ServerFault("internal error", call.http().requestId())).error());
    }
  }

  /**
   * A stream of results as A2A v1 sends it: each result a JSON-RPC response with the request's id
   * in a bare SSE {@code data:} frame, keep-alives as SSE comments.
   */
  private record DataFrames(JsonNode id, EventSink sink) implements ResultStream {
    @Override
    public boolean send(JsonNode result) {
      return sink.data(JsonRpcCodec.result(id, result));
    }

    @Override
    public boolean keepAlive() {
      return sink.comment("keep-alive");
    }

    @Override
    public boolean isOpen() {
      return sink.isOpen();
    }
  }

  private static Map<String, String> versionHeader() {
    return Map.of(VERSION_HEADER, PROTOCOL_VERSION);
  }

  private static HttpReply json(ObjectNode body) {
    return new HttpReply.Body(200, versionHeader(), JSON, JsonRpcCodec.bytes(body));
  }

  private static HttpReply error(int status, Optional<JsonNode> id, JsonRpcError error) {
    return new HttpReply.Body(
        status, versionHeader(), JSON, JsonRpcCodec.bytes(JsonRpcCodec.error(id, error)));
  }

  /**
   * The drain began: streams following a task another instance runs ({@code SubscribeToTask}
   * through a shared store) end, after the task as stored, as open {@code GET /mcp} streams do;
   * their clients subscribe again elsewhere. Streams of tasks running here go on.
   */
  public void startDraining() {
    followers.end();
  }

  /**
   * Waits, at most {@code limit}, for the tasks running on this instance to end (the drain's wait
   * for work that no request holds); returns how many still run.
   */
  public int awaitTasks(Duration limit) {
    return tasks.awaitIdle(limit);
  }

  /** How many tasks run (or wait for a turn) on this instance. */
  public int runningTasks() {
    return tasks.awaitIdle(Duration.ZERO);
  }

  /**
   * Cancels running tasks, delivers the push notifications already queued (their cancellations
   * included) for at most {@link #PUSH_GRACE}, then stops push deliveries and closes the task
   * store.
   */
  @Override
  public void close() {
    tasks.close();
    push.close(PUSH_GRACE);
    store.close();
  }

  /** How long a stopping instance goes on delivering the push notifications already queued. */
  static final Duration PUSH_GRACE = Duration.ofSeconds(3);
}
