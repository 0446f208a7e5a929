package dev.svc.protocol.mcp;

import dev.svc.call.ClientRequest;
import dev.svc.call.ClientRequestException;
import dev.svc.call.ClientText;
import dev.svc.log.Log;
import dev.svc.protocol.EventSink;
import dev.svc.protocol.jsonrpc.JsonRpcMessage;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The requests this instance sent a session's client (on a call's SSE stream) and waits for the
 * answers to: the client POSTs each response to {@code /mcp}, and {@link #answer} hands it to the
 * waiting call by its id. A request is forgotten as soon as it is answered or its call stops
 * waiting (deadline, cancellation), so a late or unknown answer finds nothing and is dropped.
 */
final class PendingClientRequests {
  private static final Log LOG = Log.tagged("mcp");

  /** Requests one session may have waiting at once; more are refused. */
  static final int MAX_WAITING = 256;

  private static final AtomicLong IDS = new AtomicLong();

  private final ConcurrentHashMap<String, Waiting> waiting = new ConcurrentHashMap<>();

  private record Waiting(ClientRequest request, CompletableFuture<JsonNode> result) {}

  /**
   * Sends {@code request} with a new id on {@code stream}; the future completes with the client's
   * result, or exceptionally with a {@link ClientRequestException}. Cancelling it forgets the
   * request.
   */
  CompletableFuture<JsonNode> send(ClientRequest request, EventSink stream) {
    if (waiting.size() >= MAX_WAITING) {
      return CompletableFuture.failedFuture(
          new ClientRequestException(
              "the session has " + MAX_WAITING + " requests to its client waiting already"));
    }
    String id = "svc-" + IDS.incrementAndGet();
    CompletableFuture<JsonNode> result = new CompletableFuture<>();
    waiting.put(id, new Waiting(request, result));
    result.whenComplete((answer, failure) -> waiting.remove(id));
    ObjectNode message = dev.svc.json.Json.NODES.objectNode();
    message.put("jsonrpc", "2.0");
    message.put("id", id);
    message.put("method", request.method());
    message.set("params", request.params());
    if (!stream.send(message)) {
      result.completeExceptionally(
          new ClientRequestException(
              "the client's event stream closed before " + request.method() + " could be sent"));
    }
    return result;
  }

  /**
   * Hands a response the client POSTed to the request it answers; false when no request of this
   * session waits for that id (unknown, answered already, given up, or another session's).
   */
  boolean answer(JsonRpcMessage.Response response) {
    JsonNode id = response.id();
    Waiting request = id.isString() ? waiting.remove(id.asString()) : null;
    if (request == null) {
      LOG.debug(
          "a response to no waiting request was dropped", "id", ClientText.shown(id.toString()));
      return false;
    }
    String method = request.request().method();
    if (response.error().isPresent()) {
      request
          .result()
          .completeExceptionally(
              new ClientRequestException(
                  "the client answered "
                      + method
                      + " with error "
                      + response.error().get().code()
                      + ": "
                      + oneLine(response.error().get().message())));
    } else if (response.result().isEmpty()) {
      request
          .result()
          .completeExceptionally(
              new ClientRequestException(
                  "the client's answer to " + method + " has neither a result nor an error"));
    } else {
      JsonNode result = response.result().get();
      switch (ClientAnswers.check(request.request(), result)) {
        case ClientAnswers.Checked.Valid valid -> request.result().complete(result);
        case ClientAnswers.Checked.Malformed malformed ->
            request
                .result()
                .completeExceptionally(
                    new ClientRequestException(
                        "the client's answer to " + method + " is malformed: " + malformed.why()));
      }
    }
    return true;
  }

  /** Gives up every request still waiting: the session ended. */
  void abandonAll() {
    waiting
        .values()
        .forEach(
            w -> w.result().completeExceptionally(new ClientRequestException("the session ended")));
  }

  private static String oneLine(String text) {
    String line = text.strip().replaceAll("\\s+", " ");
    return line.length() > 500 ? line.substring(0, 500) + "…" : line;
  }
}
