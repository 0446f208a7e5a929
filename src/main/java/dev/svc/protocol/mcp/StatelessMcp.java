package dev.svc.protocol.mcp;

import dev.svc.call.Caller;
import dev.svc.call.ClientText;
import dev.svc.json.Json;
import dev.svc.model.Tool;
import dev.svc.protocol.EventSink;
import dev.svc.protocol.HttpCall;
import dev.svc.protocol.HttpReply;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcCodec;
import dev.svc.protocol.jsonrpc.JsonRpcError;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.protocol.jsonrpc.JsonRpcMessage;
import dev.svc.ratelimit.RateLimitDecision;
import dev.svc.runtime.ModelChanges;
import dev.svc.runtime.ProjectRuntime;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP 2026-07-28 on {@code POST /mcp}, beside the session revisions (docs/serving.md "MCP
 * revisions"): no handshake and no session; each request carries its revision and the client's
 * capabilities in {@code params._meta} and is answered on its own. {@link McpServer} hands a
 * request here when it claims a stateless revision (in {@code _meta}, or in the {@code
 * MCP-Protocol-Version} header).
 *
 * <p>Checks run in the order of the specification's reference classifier: the {@code _meta}
 * envelope ({@code -32602}, 400), the method ({@code -32601}, 404), the headers that mirror the
 * body ({@code -32020}, 400), then the revision ({@code -32022}, 400).
 */
final class StatelessMcp {
  /** The methods of 2026-07-28: the schema's {@code ClientRequest} union. */
  static final Set<String> METHODS =
      Set.of(
          "server/discover",
          "completion/complete",
          "prompts/get",
          "prompts/list",
          "resources/list",
          "resources/templates/list",
          "resources/read",
          "subscriptions/listen",
          "tools/call",
          "tools/list");

  private final McpRequests requests;
  private final McpSessions sessions;
  private final Supplier<ProjectRuntime> runtime;
  private final McpServer.Capabilities capabilities;
  private final StatelessResults results;
  private final ListenStreams listens = new ListenStreams();
  private final CountDownLatch closing = new CountDownLatch(1);
  private final ToolRateLimits rateLimits;

  StatelessMcp(
      McpRequests requests,
      McpSessions sessions,
      Supplier<ProjectRuntime> runtime,
      McpServer.Capabilities capabilities,
      ToolRateLimits rateLimits) {
    this.rateLimits = rateLimits;
    this.requests = requests;
    this.sessions = sessions;
    this.runtime = runtime;
    this.capabilities = capabilities;
    this.results = new StatelessResults(CacheHints.of(capabilities.listChanged()));
  }

  /** Whether a message is for this revision: its body or its version header claims it. */
  static boolean claims(JsonRpcMessage message, Optional<String> versionHeader) {
    ObjectNode params =
        switch (message) {
          case JsonRpcMessage.Request request -> request.params();
          case JsonRpcMessage.Notification notification -> notification.params();
          case JsonRpcMessage.Response ignored -> null;
        };
    if (params != null && RequestMeta.claimedVersion(params).isPresent()) {
      return true;
    }
    return versionHeader.map(v -> ProtocolVersions.isStateless(v.strip())).orElse(false);
  }

  HttpReply post(HttpCall http, JsonRpcMessage message, McpServer.Accept accept) {
    if (message instanceof JsonRpcMessage.Response) {
      // the server never asks anything under 2026-07-28 (input rounds replace its requests)
      return McpServer.error(
          400,
          Optional.empty(),
          JsonRpcError.of(
              ErrorCodes.INVALID_REQUEST,
              "Invalid Request: a response answers nothing here (MCP 2026-07-28 has no server"
                  + " requests; a tool asks for input in its result)"));
    }
    if (!(message instanceof JsonRpcMessage.Request request)) {
      // 2026-07-28 defines no client notification over HTTP (cancelling is closing the stream)
      return new HttpReply.Empty(202, Map.of());
    }
    Optional<JsonNode> id = Optional.of(request.id());
    RequestMeta meta;
    try {
      meta = RequestMeta.of(request.params());
    } catch (JsonRpcException e) {
      return McpServer.error(400, id, e.error());
    }
    if (!METHODS.contains(request.method())) {
      return McpServer.error(
          404,
          id,
          JsonRpcError.of(
              ErrorCodes.METHOD_NOT_FOUND,
              "Method not found: "
                  + ClientText.shown(request.method())
                  + " (not a method of MCP 2026-07-28)"));
    }
    Optional<String> mismatch = StandardHeaders.mismatch(http, request, meta);
    if (mismatch.isPresent()) {
      return McpServer.error(
          400,
          id,
          JsonRpcError.of(ErrorCodes.HEADER_MISMATCH, "Header mismatch: " + mismatch.get()));
    }
    if (!ProtocolVersions.isStateless(meta.protocolVersion())) {
      return McpServer.error(400, id, unsupported(meta.protocolVersion()));
    }
    return switch (request.method()) {
      case "server/discover" -> McpServer.json(200, Map.of(), discover(request));
      case "subscriptions/listen" -> listen(request, accept);
      default -> serve(http, request, meta, accept);
    };
  }

  /** {@code -32022}: the revisions svc serves, and the one asked for. */
  static JsonRpcError unsupported(String requested) {
    ObjectNode data = Json.NODES.objectNode();
    ArrayNode supported = data.putArray("supported");
    ProtocolVersions.ALL.forEach(supported::add);
    data.put("requested", ClientText.shown(requested));
    String hint =
        ProtocolVersions.SUPPORTED.contains(requested)
            ? " (" + requested + " is served with sessions: send initialize without _meta)"
            : "";
    return new JsonRpcError(
        ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version: " + ClientText.shown(requested) + hint,
        Optional.of(data));
  }

  private ObjectNode discover(JsonRpcMessage.Request request) {
    ObjectNode result = Json.NODES.objectNode();
    ArrayNode versions = result.putArray("supportedVersions");
    ProtocolVersions.ALL.forEach(versions::add);
    result.set(
        "capabilities",
        McpServer.offered(capabilities, ProtocolVersions.STATELESS.getFirst()).toJson());
    return JsonRpcCodec.result(
        request.id(), results.complete("server/discover", result, runtime.get()));
  }

  /**
   * {@code subscriptions/listen}: an SSE stream that opens with the acknowledgement and then
   * carries the notifications the client asked for, with keep-alive comments, until the client
   * closes it or the server stops (then a final response ends it gracefully).
   */
  private HttpReply listen(JsonRpcMessage.Request request, McpServer.Accept accept) {
    if (!accept.eventStream()) {
      return McpServer.error(
          406,
          Optional.of(request.id()),
          JsonRpcError.of(
              ErrorCodes.INVALID_REQUEST,
              "Not Acceptable: subscriptions/listen answers with text/event-stream"));
    }
    ListenStreams.Filter filter;
    try {
      filter = ListenStreams.Filter.of(request.params());
    } catch (JsonRpcException e) {
      return McpServer.error(400, Optional.of(request.id()), e.error());
    }
    JsonNode id = request.id(); // the stream keeps only this of the request
    long cost = ListenStreams.cost(filter, id);
    if (!listens.reserve(cost)) {
      return McpServer.json(
          503,
          Map.of("Retry-After", "5"),
          JsonRpcCodec.error(
              Optional.of(id),
              JsonRpcError.of(
                  ErrorCodes.INTERNAL_ERROR,
                  "the open subscriptions/listen streams hold all the subscriptions this server"
                      + " keeps: name fewer or shorter URIs in `resourceSubscriptions`, or retry"
                      + " later")));
    }
    return new HttpReply.Stream(
        200,
        Map.of(),
        sink -> {
          try {
            listen(sink, id, filter);
          } finally {
            listens.release(cost);
          }
        });
  }

  private void listen(EventSink sink, JsonNode subscriptionId, ListenStreams.Filter filter) {
    ListenStreams.Listener listener = listens.open(sink, subscriptionId, filter);
    try {
      while (sink.isOpen() && sink.comment("keep-alive") && !closing.await(15, TimeUnit.SECONDS)) {
        // notifications are sent by publish()
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      listens.close(listener);
    }
    if (closing.getCount() == 0 && sink.isOpen()) {
      ObjectNode end = Json.NODES.objectNode();
      end.put("resultType", "complete");
      end.putObject("_meta").set(RequestMeta.SUBSCRIPTION_ID, subscriptionId);
      sink.send(JsonRpcCodec.result(subscriptionId, end));
    }
  }

  /** Tells the open listen streams what a reload changed. */
  void publish(ModelChanges changes) {
    listens.publish(changes);
  }

  /** Ends the open listen streams (each with its final response), so shutdown need not wait. */
  void shutdown() {
    closing.countDown();
  }

  /**
   * Serves a request of the method set through the same handlers as sessions, with a session of its
   * own that holds what its {@code _meta} said.
   */
  private HttpReply serve(
      HttpCall http, JsonRpcMessage.Request request, RequestMeta meta, McpServer.Accept accept) {
    ProjectRuntime current = runtime.get();
    Caller plain = new Caller(http.requestId(), http.headers(), Optional.empty(), http.verified());
    Caller caller = plain;
    Map<String, String> headers = Map.of();
    if (request.method().equals("tools/call")) {
      String name = request.params().path("name").asString("");
      Optional<Tool> tool = current.tools().tool(name);
      Optional<String> mismatch =
          tool.flatMap(
              t -> ParamHeaders.mismatch(http.headers(), t, request.params().get("arguments")));
      if (mismatch.isPresent()) {
        return McpServer.error(
            400,
            Optional.of(request.id()),
            JsonRpcError.of(ErrorCodes.HEADER_MISMATCH, "Header mismatch: " + mismatch.get()));
      }
      Optional<RateLimitDecision> limited = rateLimits.take(http, current.tools(), tool);
      if (limited.isPresent() && !limited.get().allowed()) {
        return ToolRateLimits.refused(request.id(), name, limited.get());
      }
      headers = ToolRateLimits.headers(limited, name);
      if (tool.isPresent() && SessionClientRequests.mayAsk(tool.get())) {
        // the call may ask its client: the questions go out with an input_required result and
        // their answers come with the retried call (MRTR)
        try {
          caller =
              plain.withClientRequests(
                  InputRounds.open(
                      sessions.requestStates(),
                      request.params(),
                      http.principal(),
                      ClientCapabilities.of(meta.clientCapabilities()),
                      Instant.now()));
        } catch (JsonRpcException e) {
          return McpServer.json(
              200, Map.of(), JsonRpcCodec.error(Optional.of(request.id()), e.error()));
        }
      }
    }
    Caller served = caller;
    boolean streams =
        accept.eventStream()
            && (!accept.json() || meta.progressToken().isPresent() || meta.logLevel().isPresent());
    if (!streams) {
      ObjectNode response = respond(current, served, request, meta, Optional.empty());
      return McpServer.json(statusOf(response), headers, response);
    }
    return new HttpReply.Stream(
        200,
        headers,
        sink -> sink.send(respond(current, served, request, meta, Optional.of(sink))));
  }

  private ObjectNode respond(
      ProjectRuntime current,
      Caller caller,
      JsonRpcMessage.Request request,
      RequestMeta meta,
      Optional<EventSink> stream) {
    // only tool calls run long enough to be aborted as the server stops, or to be watched for a
    // client that closed their stream (how a 2026-07-28 client cancels over HTTP)
    boolean toolCall = request.method().equals("tools/call");
    McpSession session = sessions.startStateless(meta, toolCall);
    Consumer<JsonNode> notifier = stream.<Consumer<JsonNode>>map(s -> s::send).orElse(n -> {});
    Supplier<ObjectNode> respond =
        () -> requests.respond(session, current, caller, request, meta.progressToken(), notifier);
    try {
      ObjectNode response =
          stream.isPresent() && toolCall
              ? StreamWatch.during(stream.get(), () -> session.cancel(request.id()), respond)
              : respond.get();
      JsonNode result = response.get("result");
      if (result instanceof ObjectNode body) {
        response.set("result", results.complete(request.method(), body, current));
      }
      return response;
    } finally {
      sessions.endStateless(session);
    }
  }

  /**
   * The HTTP status of a JSON answer: 404 for an unknown method, 400 for the transport's errors.
   */
  private static int statusOf(ObjectNode response) {
    JsonNode error = response.get("error");
    if (error == null) {
      return 200;
    }
    return switch (error.path("code").asInt()) {
      case ErrorCodes.METHOD_NOT_FOUND -> 404;
      case ErrorCodes.HEADER_MISMATCH,
          ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
          ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION ->
          400;
      default -> 200;
    };
  }
}
