package dev.svc.protocol.mcp;

import dev.svc.SvcVersion;
import dev.svc.call.Caller;
import dev.svc.call.ClientText;
import dev.svc.call.VerifiedToken;
import dev.svc.json.Json;
import dev.svc.log.Log;
import dev.svc.protocol.EventSink;
import dev.svc.protocol.HttpCall;
import dev.svc.protocol.HttpReply;
import dev.svc.protocol.jsonrpc.Dispatcher;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcCodec;
import dev.svc.protocol.jsonrpc.JsonRpcError;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.protocol.jsonrpc.JsonRpcMessage;
import dev.svc.ratelimit.InMemoryRateLimiter;
import dev.svc.ratelimit.RateLimitDecision;
import dev.svc.ratelimit.RateLimiter;
import dev.svc.runtime.ModelChanges;
import dev.svc.runtime.ProjectRuntime;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP over Streamable HTTP at {@code /mcp} (docs/decisions.md "MCP transport"): {@code initialize}
 * issues a signed session id; POSTed requests are answered with JSON, or with an SSE stream when
 * the call streams notifications; notifications and responses get 202; {@code GET} opens the
 * server's stream; {@code DELETE} ends the session. This class is the transport (status codes,
 * headers, sessions, content negotiation, SSE); {@link McpRequests} runs the requests.
 */
public final class McpServer {
  private static final Log LOG = Log.tagged("mcp");

  public static final String SESSION_HEADER = "Mcp-Session-Id";
  public static final String VERSION_HEADER = "MCP-Protocol-Version";
  // read on every 2026-07-28 request: lower case, as Headers looks names up
  static final String METHOD_HEADER = "mcp-method";
  static final String NAME_HEADER = "mcp-name";
  private static final String JSON_TYPE = "application/json";
  private static final String SSE_TYPE = "text/event-stream";

  private final McpSessions sessions;
  private final McpRequests requests;
  private final StatelessMcp stateless;
  private final Capabilities capabilities;
  private final Supplier<ProjectRuntime> runtime;
  private final CountDownLatch closing = new CountDownLatch(1);
  private final ToolRateLimits rateLimits;

  /** What the server announces it can do; only what is really served. */
  public record Capabilities(boolean listChanged) {}

  /** A server whose tool rate limits are counted by a limiter of its own, in memory. */
  public McpServer(
      Supplier<ProjectRuntime> runtime, McpSessions sessions, Capabilities capabilities) {
    this(runtime, sessions, capabilities, new InMemoryRateLimiter());
  }

  /**
   * @param limiter counts the calls of tools with a {@code rate_limit} (shared with A2A agents)
   */
  public McpServer(
      Supplier<ProjectRuntime> runtime,
      McpSessions sessions,
      Capabilities capabilities,
      RateLimiter limiter) {
    this.runtime = runtime;
    this.rateLimits = new ToolRateLimits(limiter);
    this.sessions = sessions;
    this.capabilities = capabilities;
    this.requests = new McpRequests(new Dispatcher<>(new McpMethods().handlers()), sessions);
    this.stateless = new StatelessMcp(requests, sessions, runtime, capabilities, rateLimits);
  }

  public McpSessions sessions() {
    return sessions;
  }

  /**
   * Tells clients what a reload changed: {@code notifications/…/list_changed} to every session with
   * an open stream, {@code notifications/resources/updated} to sessions subscribed to a changed
   * URI.
   */
  public void publish(ModelChanges changes) {
    stateless.publish(changes);
    ObjectNode empty = Json.NODES.objectNode();
    for (McpSession session : sessions.all()) {
      if (changes.toolsChanged()) {
        session.notify(JsonRpcCodec.notification("notifications/tools/list_changed", empty));
      }
      if (changes.promptsChanged()) {
        session.notify(JsonRpcCodec.notification("notifications/prompts/list_changed", empty));
      }
      if (changes.resourcesChanged()) {
        session.notify(JsonRpcCodec.notification("notifications/resources/list_changed", empty));
      }
      for (String uri : changes.updatedUris()) {
        if (session.subscribedTo(uri)) {
          session.notify(
              JsonRpcCodec.notification(
                  "notifications/resources/updated", Json.NODES.objectNode().put("uri", uri)));
        }
      }
    }
  }

  public HttpReply handle(HttpCall http) {
    if (!http.method().equals("POST")
        && http.headers()
            .first(VERSION_HEADER)
            .map(v -> ProtocolVersions.isStateless(v.strip()))
            .orElse(false)) {
      return new HttpReply.Body(
          405,
          Map.of("Allow", "POST"),
          JSON_TYPE,
          JsonRpcCodec.bytes(
              JsonRpcCodec.error(
                  Optional.empty(),
                  JsonRpcError.of(
                      ErrorCodes.INVALID_REQUEST,
                      "Method not allowed: MCP 2026-07-28 has no GET stream and no session to"
                          + " delete; POST subscriptions/listen for notifications"))));
    }
    return switch (http.method()) {
      case "POST" -> post(http);
      case "GET" -> openStream(http);
      case "DELETE" -> delete(http);
      // RFC 9110 §15.5.6: a 405 names the methods the resource serves
      default ->
          json(
              405,
              Map.of("Allow", "POST, GET, DELETE"),
              JsonRpcCodec.error(
                  Optional.empty(),
                  JsonRpcError.of(
                      ErrorCodes.INVALID_REQUEST,
                      "Method not allowed: use POST, GET or DELETE on /mcp")));
    };
  }

  private HttpReply post(HttpCall http) {
    String contentType = http.headers().first("content-type").orElse("");
    if (!contentType.toLowerCase().startsWith(JSON_TYPE)) {
      return error(
          415,
          Optional.empty(),
          ErrorCodes.INVALID_REQUEST,
          "Unsupported Media Type: send Content-Type: application/json");
    }
    Accept accept = Accept.of(http.headers().first("accept").orElse(""));
    if (!accept.json() && !accept.eventStream()) {
      return error(
          406,
          Optional.empty(),
          ErrorCodes.INVALID_REQUEST,
          "Not Acceptable: accept application/json and text/event-stream");
    }
    JsonRpcMessage message;
    switch (JsonRpcCodec.parse(http.body())) {
      case JsonRpcCodec.Invalid invalid -> {
        return error(400, invalid.id(), invalid.error().code(), invalid.error().message());
      }
      case JsonRpcCodec.Message parsed -> message = parsed.message();
    }
    if (StatelessMcp.claims(message, http.headers().first(VERSION_HEADER))) {
      return stateless.post(http, message, accept);
    }
    if (message instanceof JsonRpcMessage.Request request
        && request.method().equals("initialize")) {
      return initialize(request, http.verified().map(VerifiedToken::principalId));
    }
    // an unknown revision is said as such before anything else is asked for (a session id)
    Optional<String> version = http.headers().first(VERSION_HEADER);
    if (version.isPresent() && !ProtocolVersions.SUPPORTED.contains(version.get())) {
      return error(
          400,
          idOf(message),
          ErrorCodes.INVALID_REQUEST,
          "Bad Request: unsupported MCP-Protocol-Version "
              + ClientText.shown(version.get())
              + "; supported: "
              + String.join(", ", ProtocolVersions.ALL));
    }
    Optional<String> sessionId = http.headers().first(SESSION_HEADER);
    if (sessionId.isEmpty()) {
      return error(
          400,
          idOf(message),
          ErrorCodes.INVALID_REQUEST,
          "Bad Request: Mcp-Session-Id header is required (call initialize first)");
    }
    Optional<McpSession> session =
        sessions.find(sessionId.get(), http.verified().map(VerifiedToken::principalId));
    if (session.isEmpty()) {
      return error(
          404,
          idOf(message),
          ErrorCodes.SESSION_NOT_FOUND,
          "Session not found: initialize a new session");
    }
    return switch (message) {
      case JsonRpcMessage.Notification notification -> {
        requests.notified(session.get(), notification);
        yield new HttpReply.Empty(202, Map.of());
      }
      case JsonRpcMessage.Response response -> {
        session.get().pending().answer(response); // an answer no call waits for is dropped
        yield new HttpReply.Empty(202, Map.of());
      }
      case JsonRpcMessage.Request request ->
          request(
              http,
              session.get(),
              new Caller(http.requestId(), http.headers(), sessionId, http.verified()),
              request,
              accept);
    };
  }

  private HttpReply initialize(JsonRpcMessage.Request request, Optional<String> owner) {
    InitializeParams params;
    try {
      params = InitializeParams.of(request.params());
    } catch (JsonRpcException e) {
      return json(200, Map.of(), JsonRpcCodec.error(Optional.of(request.id()), e.error()));
    }
    String version = ProtocolVersions.negotiate(params.protocolVersion());
    String session = sessions.begin(version, params.capabilities(), owner);
    var service = runtime.get().model().service();
    InitializeResult result =
        new InitializeResult(
            version,
            offered(capabilities, version),
            new InitializeResult.Implementation(
                service.name(), service.version().orElse(SvcVersion.current())));
    LOG.debug("session started", "protocol_version", version);
    return json(
        200, Map.of(SESSION_HEADER, session), JsonRpcCodec.result(request.id(), result.toJson()));
  }

  /**
   * Tools, prompts, resources (with subscriptions), completions and logging: what the negotiated
   * revision has of them (completions only since 2025-03-26).
   */
  static ServerCapabilities offered(Capabilities capabilities, String version) {
    Optional<Boolean> listChanged = Optional.of(capabilities.listChanged());
    return new ServerCapabilities(
        Optional.of(new ServerCapabilities.Listing(listChanged)),
        Optional.of(new ServerCapabilities.Listing(listChanged)),
        Optional.of(new ServerCapabilities.Resources(Optional.of(true), listChanged)),
        ProtocolVersions.hasCompletions(version)
            ? Optional.of(Json.NODES.objectNode())
            : Optional.empty(),
        Optional.of(Json.NODES.objectNode()));
  }

  /**
   * Answers a request with JSON, or with an SSE stream that carries the notifications about it
   * first when the client accepts one and has asked for progress or logs (or accepts only SSE), or
   * when the call may ask the client something (elicitation, sampling, roots: sent on that stream).
   * The runtime is read here, once: the whole request is served by the project current now.
   */
  private HttpReply request(
      HttpCall http,
      McpSession session,
      Caller caller,
      JsonRpcMessage.Request request,
      Accept accept) {
    ProjectRuntime current = runtime.get();
    Optional<JsonNode> progressToken;
    try {
      progressToken = RequestMeta.progressToken(request.params());
    } catch (JsonRpcException e) {
      return json(200, Map.of(), JsonRpcCodec.error(Optional.of(request.id()), e.error()));
    }
    Map<String, String> headers = Map.of();
    if (request.method().equals("tools/call")) {
      String name = request.params().path("name").asString("");
      Optional<RateLimitDecision> limited =
          rateLimits.take(http, current.tools(), current.tools().tool(name));
      if (limited.isPresent() && !limited.get().allowed()) {
        return ToolRateLimits.refused(request.id(), name, limited.get());
      }
      headers = ToolRateLimits.headers(limited, name);
    }
    boolean streams =
        accept.eventStream()
            && (!accept.json()
                || progressToken.isPresent()
                || session.logLevel().isPresent()
                || SessionClientRequests.mayAsk(session, current, request));
    if (!streams) {
      Caller plain =
          caller.withClientRequests(new SessionClientRequests(session, Optional.empty()));
      ObjectNode response =
          requests.respond(session, current, plain, request, progressToken, n -> {});
      return json(200, headers, response);
    }
    return new HttpReply.Stream(
        200,
        headers,
        sink -> {
          Caller asking =
              caller.withClientRequests(new SessionClientRequests(session, Optional.of(sink)));
          // a closed stream is not a cancel here: 2025-11-25 says disconnection SHOULD NOT be
          // taken as one (under 2026-07-28 it is: StreamWatch)
          sink.send(requests.respond(session, current, asking, request, progressToken, sink::send));
        });
  }

  private HttpReply openStream(HttpCall http) {
    if (!Accept.of(http.headers().first("accept").orElse("")).eventStream()) {
      return status(406, "Not Acceptable: GET /mcp opens a text/event-stream");
    }
    return switch (sessionOf(http)) {
      case SessionLookup.Refused refused -> refused.reply();
      case SessionLookup.Found found ->
          new HttpReply.Stream(200, Map.of(), sink -> stream(found.session(), sink));
    };
  }

  /** The session a GET or DELETE names, or the reply that refuses the request. */
  private sealed interface SessionLookup {
    record Found(McpSession session) implements SessionLookup {}

    record Refused(HttpReply reply) implements SessionLookup {}
  }

  private SessionLookup sessionOf(HttpCall http) {
    Optional<String> sessionId = http.headers().first(SESSION_HEADER);
    if (sessionId.isEmpty()) {
      return new SessionLookup.Refused(
          error(
              400,
              Optional.empty(),
              ErrorCodes.INVALID_REQUEST,
              "Bad Request: Mcp-Session-Id header is required"));
    }
    return sessions
        .find(sessionId.get(), http.verified().map(VerifiedToken::principalId))
        .<SessionLookup>map(SessionLookup.Found::new)
        .orElseGet(() ->
            new SessionLookup.Refused(
                error(404, Optional.empty(), ErrorCodes.SESSION_NOT_FOUND, "Session not found")));
  }

  /** Ends every open server stream, so shutdown does not wait for them. */
  public void shutdown() {
    closing.countDown();
    stateless.shutdown();
  }

  /**
   * Ends the tool calls still running (the drain limit passed): each is interrupted like a
   * cancelled call, and answered with {@code -32603 server shutting down} and its request id.
   */
  public void abortInFlight() {
    requests.abortInFlight();
  }

  private void stream(McpSession session, EventSink sink) {
    sessions.openStream(session, sink);
    try {
      while (sink.isOpen() && sink.comment("keep-alive") && !closing.await(15, TimeUnit.SECONDS)) {
        // keep the stream open; notifications are sent by publish()
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      sessions.closeStream(session, sink);
    }
  }

  private HttpReply delete(HttpCall http) {
    return switch (sessionOf(http)) {
      case SessionLookup.Refused refused -> refused.reply();
      case SessionLookup.Found found -> {
        sessions.end(found.session());
        yield new HttpReply.Empty(200, Map.of());
      }
    };
  }

  private static Optional<JsonNode> idOf(JsonRpcMessage message) {
    return message instanceof JsonRpcMessage.Request request
        ? Optional.of(request.id())
        : Optional.empty();
  }

  private static HttpReply error(int status, Optional<JsonNode> id, int code, String message) {
    return error(status, id, JsonRpcError.of(code, message));
  }

  static HttpReply error(int status, Optional<JsonNode> id, JsonRpcError error) {
    return json(status, Map.of(), JsonRpcCodec.error(id, error));
  }

  private static HttpReply status(int status, String message) {
    return error(status, Optional.empty(), ErrorCodes.INVALID_REQUEST, message);
  }

  static HttpReply json(int status, Map<String, String> headers, ObjectNode body) {
    return new HttpReply.Body(status, headers, JSON_TYPE, JsonRpcCodec.bytes(body));
  }

  /** What a client's Accept header allows. */
  record Accept(boolean json, boolean eventStream) {
    static Accept of(String header) {
      if (header.isBlank()) {
        return new Accept(true, false);
      }
      String h = header.toLowerCase();
      boolean any = h.contains("*/*");
      return new Accept(
          any || h.contains(JSON_TYPE) || h.contains("application/*"), any || h.contains(SSE_TYPE));
    }
  }
}
