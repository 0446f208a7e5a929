package dev.svc.server;

import dev.svc.call.AnswerHold;
import dev.svc.call.ClientText;
import dev.svc.call.Headers;
import dev.svc.call.RequestIds;
import dev.svc.json.Json;
import dev.svc.log.Log;
import dev.svc.net.ClientAddress;
import dev.svc.protocol.EndpointAuth;
import dev.svc.protocol.HttpCall;
import dev.svc.protocol.HttpReply;
import dev.svc.protocol.console.DevConsole;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcCodec;
import dev.svc.protocol.jsonrpc.JsonRpcError;
import dev.svc.telemetry.Metrics;
import dev.svc.telemetry.PrometheusText;
import dev.svc.telemetry.Scope;
import dev.svc.telemetry.SvcMetrics;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.JsonNode;

/**
 * The one Jetty handler: routes by path, guards {@code Host}/{@code Origin}, answers CORS, reads
 * bodies up to the limit, and writes what the protocol layer replies (bodies or SSE streams).
 */
final class RequestHandler extends Handler.Abstract {
  private static final Log LOG = Log.tagged("http");
  private static final byte[] HEARTBEAT = "{\"success\":true}".getBytes(StandardCharsets.UTF_8);
  private static final byte[] READY = "{\"status\":\"ready\"}".getBytes(StandardCharsets.UTF_8);
  private static final byte[] STARTING =
      "{\"status\":\"starting\"}".getBytes(StandardCharsets.UTF_8);
  private static final byte[] STOPPING =
      "{\"status\":\"stopping\"}".getBytes(StandardCharsets.UTF_8);
  private static final String ROOT_AGENT_CARD = "/.well-known/agent-card.json";

  private final ServerSettings settings;
  private final OriginPolicy policy;
  private final Route mcp;
  private final Route agents;
  private final BooleanSupplier ready;
  private final Supplier<ReadinessProbe> readiness;
  private final Drain drain;
  private final Optional<EndpointAuth> auth;
  private final Optional<DevConsole> console;
  private final BodyMemory bodies;

  RequestHandler(
      ServerSettings settings,
      OriginPolicy policy,
      Route mcp,
      Route agents,
      BooleanSupplier ready,
      Supplier<ReadinessProbe> readiness,
      Drain drain,
      Optional<EndpointAuth> auth,
      Optional<DevConsole> console) {
    super(InvocationType.BLOCKING);
    this.settings = settings;
    this.policy = policy;
    this.mcp = mcp;
    this.agents = agents;
    this.ready = ready;
    this.readiness = readiness;
    this.drain = drain;
    this.auth = auth;
    this.console = console;
    this.bodies = BodyMemory.forHeap(Runtime.getRuntime().maxMemory(), settings.maxBodyBytes());
  }

  @Override
  @SuppressWarnings("try") // the scope only makes the span current while the request is served
  public boolean handle(Request request, Response response, Callback callback) {
    String path = request.getHttpURI().getPath();
    HttpTelemetry.Exchange exchange = HttpTelemetry.begin(request, path);
    try (Scope scope = exchange.span().activate()) {
      if (!drain.admit()) {
        refuseWhileStopping(request, response, callback);
        return true;
      }
      if (drain.phase().compareTo(Drain.Phase.DRAINING) >= 0) {
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
      }
      serve(request, response, Callback.from(callback, drain::leave), path);
    } finally {
      exchange.end(response.getStatus());
    }
    return true;
  }

  /**
   * A request that came after the drain limit, as the connections are about to close: 503 with
   * {@code Retry-After}, and a JSON-RPC error body (with the request's id when it has one) so that
   * protocol clients read a protocol error.
   */
  private static void refuseWhileStopping(Request request, Response response, Callback callback) {
    SvcMetrics.HTTP_REFUSALS.increment("shutting_down");
    Optional<JsonNode> id = Optional.empty();
    if (request.getLength() > 0 && request.getLength() <= 64 * 1024) {
      if (RequestBody.read(request, 64 * 1024, Duration.ofSeconds(1))
          instanceof RequestBody.Outcome.Received(byte[] bytes)) {
        id = JsonRpcCodec.idOf(bytes);
      }
    }
    response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    byte[] body =
        JsonRpcCodec.bytes(
            JsonRpcCodec.error(
                id,
                JsonRpcError.of(
                    ErrorCodes.INTERNAL_ERROR,
                    "server shutting down: retry the request (another instance will answer)")));
    writeBody(response, callback, 503, "application/json", body);
  }

  private void serve(Request request, Response response, Callback callback, String path) {
    String method = request.getMethod();
    BodyMemory.Hold hold = bodies.hold();
    callback = Callback.from(callback, hold::close);
    try {
      Headers headers = headers(request);
      if (!policy.hostAllowed(headers.first("host"))) {
        writeError(
            response, callback, 403, "Forbidden: Host not allowed (see server.allowed_hosts)");
        return;
      }
      Optional<String> origin = headers.first("origin");
      if (!policy.originAllowed(origin, headers.first("host"))) {
        writeError(
            response, callback, 403, "Forbidden: Origin not allowed (see server.allowed_origins)");
        return;
      }
      if (HttpTelemetry.isMetricsConnector(request)) {
        metrics(method, path, response, callback);
        return;
      }
      if (path.equals("/metrics")
          && settings.metrics().enabled()
          && settings.metrics().port().isEmpty()) {
        metrics(method, path, response, callback);
        return;
      }
      if (path.equals("/heartbeat")) {
        if (!ready.getAsBoolean()) {
          writeBody(
              response,
              callback,
              503,
              "application/json",
              "{\"success\":false}".getBytes(StandardCharsets.UTF_8));
        } else {
          writeBody(response, callback, 200, "application/json", HEARTBEAT);
        }
        return;
      }
      if (path.equals("/ready")) {
        ready(response, callback);
        return;
      }
      if (auth.isPresent() && EndpointAuth.isMetadataPath(path)) {
        if (method.equals("OPTIONS")) {
          Cors.metadataPreflight(response, callback);
          return;
        }
        write(
            auth.get().metadata(call(request, path, method, headers, new byte[0])),
            response,
            callback);
        return;
      }
      if (DevConsole.owns(path)) {
        console(request, response, callback, path, method, headers);
        return;
      }
      boolean isMcp = path.equals("/mcp") || path.equals("/mcp/");
      // the host root's well-known agent card (A2A v1 §8.2) is the agents' route too
      boolean isAgent = path.startsWith("/agent/") || path.equals(ROOT_AGENT_CARD);
      if (!isMcp && !isAgent) {
        writeError(
            response,
            callback,
            404,
            "not found: "
                + path
                + " (svc serves /mcp, /agent/{name}, "
                + ROOT_AGENT_CARD
                + ", /heartbeat and /ready)");
        return;
      }
      Cors.allowOrigin(response, origin, isMcp);
      if (method.equals("OPTIONS")) {
        Cors.preflight(request, response, callback, isMcp);
        return;
      }
      Optional<String> coding = headers.first("content-encoding");
      if (coding.isPresent() && !coding.get().strip().equalsIgnoreCase("identity")) {
        // RFC 9110 §15.5.16: a body in a coding the server does not read is 415
        SvcMetrics.HTTP_REFUSALS.increment("content_encoding");
        response.getHeaders().put("Accept-Encoding", "identity");
        BodyReceiver.refuse(
            request,
            response,
            callback,
            415,
            "Unsupported Media Type: svc reads request bodies as sent, without a Content-Encoding"
                + " (got "
                + ClientText.printable(coding.get())
                + ")");
        return;
      }
      Optional<String> transferCoding = otherTransferCoding(headers);
      if (transferCoding.isPresent()) {
        // RFC 9112 §6.1: a transfer coding the server does not understand is 501
        SvcMetrics.HTTP_REFUSALS.increment("transfer_encoding");
        BodyReceiver.refuse(
            request,
            response,
            callback,
            501,
            "Not Implemented: svc reads request bodies with a Content-Length or chunked, in no"
                + " other transfer coding (got "
                + ClientText.printable(transferCoding.get())
                + ")");
        return;
      }
      Optional<byte[]> received =
          BodyReceiver.receive(request, response, callback, settings, hold, path);
      if (received.isEmpty()) {
        return; // refused, and answered
      }
      byte[] body = received.get();
      HttpCall call = call(request, path, method, headers, body);
      if (auth.isPresent() && !isAgentCard(path)) {
        switch (auth.get().admit(call)) {
          case EndpointAuth.Admission.Refused refused -> {
            write(refused.reply(), response, callback);
            return;
          }
          case EndpointAuth.Admission.Admitted admitted -> call = admitted.call();
        }
      }
      answer(isMcp ? mcp : agents, call, response, callback, hold);
    } catch (Throwable e) {
      hold.close();
      LOG.error("request failed", e, "path", path);
      if (!response.isCommitted()) {
        writeError(response, callback, 500, "internal server error");
      } else {
        callback.failed(e);
      }
    }
  }

  /**
   * Has {@code route} answer {@code call} and writes the answer, with an {@link AnswerHold} bound
   * for both: what the answer holds of the result budget is given back once it is written (or
   * failed), not before.
   */
  private void answer(
      Route route, HttpCall call, Response response, Callback callback, BodyMemory.Hold body)
      throws Exception {
    AnswerHold hold = new AnswerHold();
    Callback released =
        new Callback.Nested(callback) {
          @Override
          public void succeeded() {
            hold.written();
            super.succeeded();
          }

          @Override
          public void failed(Throwable failure) {
            hold.written();
            super.failed(failure);
          }
        };
    try {
      ScopedValue.where(AnswerHold.CURRENT, hold)
          .call(() -> {
            HttpReply reply = route.handle(call);
            body.close(); // handled: the request's body is no longer needed while the answer goes
            write(reply, response, released);
            return null;
          });
    } catch (Throwable e) {
      hold.written(); // the caller answers with an error on the plain callback
      throw e;
    }
  }

  /**
   * {@code /ui} and below, with {@code svc start --ui}: the page's files for anyone who passed the
   * {@code Host}/{@code Origin} check (a browser cannot send a token when it opens a URL, and they
   * hold no project data), the rest with the same token as {@code /mcp}. Same-origin only: no CORS
   * headers.
   */
  private void console(
      Request request,
      Response response,
      Callback callback,
      String path,
      String method,
      Headers headers) {
    if (console.isEmpty()) {
      writeError(
          response,
          callback,
          404,
          "not found: " + path + " (the dev console is served by svc start --ui)");
      return;
    }
    HttpCall call = call(request, path, method, headers, new byte[0]);
    if (auth.isPresent() && !DevConsole.isPageFile(path)) {
      switch (auth.get().admit(call)) {
        case EndpointAuth.Admission.Refused refused -> {
          write(refused.reply(), response, callback);
          return;
        }
        case EndpointAuth.Admission.Admitted admitted -> call = admitted.call();
      }
    }
    write(console.get().handle(call), response, callback);
  }

  /**
   * {@code /ready}, for load balancers and orchestrators: 200 while this instance should get
   * requests; 503 while it starts, from the moment it is asked to stop, and while an adapter is
   * unreachable (named in the body, with a reason and nothing else).
   */
  private void ready(Response response, Callback callback) {
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    if (drain.phase() != Drain.Phase.SERVING) {
      writeBody(response, callback, 503, "application/json", STOPPING);
      return;
    }
    if (!ready.getAsBoolean()) {
      writeBody(response, callback, 503, "application/json", STARTING);
      return;
    }
    Map<String, String> unreachable = readiness.get().unreachableAdapters();
    if (unreachable.isEmpty()) {
      writeBody(response, callback, 200, "application/json", READY);
      return;
    }
    var body = Json.NODES.objectNode().put("status", "unavailable");
    var adapters = body.putArray("adapters");
    unreachable.forEach(
        (name, reason) -> adapters.addObject().put("name", name).put("reason", reason));
    writeBody(response, callback, 503, "application/json", Json.MAPPER.writeValueAsBytes(body));
  }

  private HttpCall call(Request request, String path, String method, Headers headers, byte[] body) {
    return new HttpCall(
        method,
        path,
        headers,
        body,
        () -> ForwardedBase.of(request, headers, policy),
        RequestIds.next(),
        Objects.requireNonNullElse(request.getHttpURI().getQuery(), ""),
        Optional.empty(),
        clientAddress(request));
  }

  /** The client per-client limits count ({@link ClientAddress}); empty when not an IP peer. */
  private static String clientAddress(Request request) {
    return request.getConnectionMetaData().getRemoteSocketAddress()
                instanceof InetSocketAddress remote
            && remote.getAddress() != null
        ? ClientAddress.of(remote.getAddress())
        : "";
  }

  /**
   * Agent cards stay public with {@code server.auth}: clients read them to learn how to call (and
   * authenticate to) the agent.
   */
  private static boolean isAgentCard(String path) {
    return path.equals(ROOT_AGENT_CARD)
        || (path.startsWith("/agent/") && path.endsWith(ROOT_AGENT_CARD));
  }

  /** {@code GET /metrics}: every metric in the Prometheus text format. */
  private static void metrics(String method, String path, Response response, Callback callback) {
    if (!path.equals("/metrics")) {
      writeError(response, callback, 404, "not found: " + path + " (this port serves /metrics)");
    } else if (!method.equals("GET") && !method.equals("HEAD")) {
      response.getHeaders().put("Allow", "GET, HEAD");
      writeError(response, callback, 405, "Method not allowed: GET /metrics");
    } else {
      byte[] text = PrometheusText.write(Metrics.families()).getBytes(StandardCharsets.UTF_8);
      writeBody(response, callback, 200, PrometheusText.CONTENT_TYPE, text);
    }
  }

  private void write(HttpReply reply, Response response, Callback callback) {
    reply.headers().forEach((name, value) -> response.getHeaders().put(name, value));
    switch (reply) {
      case HttpReply.Body body ->
          writeBody(response, callback, body.status(), body.contentType(), body.body());
      case HttpReply.Empty empty -> {
        response.setStatus(empty.status());
        response.write(true, null, callback);
      }
      case HttpReply.Stream stream -> {
        response.setStatus(stream.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache, no-transform");
        response.getHeaders().put("X-Accel-Buffering", "no");
        SseSink sink = new SseSink(response);
        try {
          stream.writer().accept(sink);
        } finally {
          sink.close();
          response.write(true, null, callback);
        }
      }
    }
  }

  private static void writeBody(
      Response response, Callback callback, int status, String type, byte[] body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
  }

  private static void writeError(Response response, Callback callback, int status, String message) {
    writeBody(response, callback, status, "application/json", HttpReply.errorJson(message));
  }

  /** A transfer coding of the request other than {@code chunked} (Jetty decodes only that one). */
  private static Optional<String> otherTransferCoding(Headers headers) {
    for (String value : headers.all("transfer-encoding")) {
      for (String coding : value.split(",")) {
        String name = coding.strip();
        if (!name.isEmpty() && !name.equalsIgnoreCase("chunked")) {
          return Optional.of(name);
        }
      }
    }
    return Optional.empty();
  }

  private static Headers headers(Request request) {
    HttpFields fields = request.getHeaders();
    Headers.Builder headers = new Headers.Builder(fields.size());
    for (HttpField field : fields) {
      headers.add(field.getLowerCaseName(), field.getValue());
    }
    return headers.build();
  }
}
