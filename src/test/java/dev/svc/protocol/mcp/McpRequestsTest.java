package dev.svc.protocol.mcp;

import static dev.svc.protocol.jsonrpc.MethodHandler.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Caller;
import dev.svc.json.Json;
import dev.svc.protocol.jsonrpc.Dispatcher;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.protocol.jsonrpc.JsonRpcMessage;
import dev.svc.protocol.jsonrpc.MethodHandler;
import dev.svc.runtime.ToolServerException;
import dev.svc.testing.WeatherProject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Running MCP requests without HTTP: results, errors, cancellation and abort of tool calls. */
class McpRequestsTest {
  private final CountDownLatch toolStarted = new CountDownLatch(1);
  private final McpSessions sessions = new McpSessions(new SessionTokens(new byte[32]));
  private final McpSession session =
      sessions.find(sessions.begin(ProtocolVersions.PREFERRED)).orElseThrow();
  private final McpRequests requests =
      new McpRequests(
          new Dispatcher<>(
              Map.<String, MethodHandler<McpCall>>of(
                  "echo",
                  result((call, params) ->
                      Json.NODES
                          .objectNode()
                          .put("requestId", call.caller().requestId())
                          .set("params", params)),
                  "refuse",
                  result((call, params) -> {
                    throw JsonRpcException.invalidParams("`x` is required");
                  }),
                  "broken",
                  result((call, params) -> {
                    throw new IllegalStateException("a bug");
                  }),
                  "tools/call",
                  result((call, params) -> call(params)))),
          sessions);

  /** The project the requests are served by. */
  @RegisterExtension static final WeatherProject project = new WeatherProject();

  /** A tool that blocks until interrupted, or fails as a server fault. */
  private JsonNode call(ObjectNode params) {
    if (params.path("name").asString().equals("down")) {
      throw new ToolServerException("the database of tool `down` is unavailable", null);
    }
    toolStarted.countDown();
    try {
      Thread.sleep(60_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return Json.NODES.objectNode();
  }

  private ObjectNode respond(String id, String method, String params) {
    JsonRpcMessage.Request request =
        new JsonRpcMessage.Request(
            Json.NODES.stringNode(id), method, (ObjectNode) Json.MAPPER.readTree(params));
    return requests.respond(
        session,
        project.runtime(),
        Caller.internal("rid-" + id),
        request,
        Optional.empty(),
        n -> {});
  }

  @Test
  void aResultIsAnsweredWithTheCallerBoundForTheHandler() {
    assertThat(respond("1", "echo", "{\"a\":1}").toString())
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"requestId\":\"rid-1\",\"params\":{\"a\":1}}}");
  }

  @Test
  void protocolErrorsAreAnsweredAsTheHandlerThrewThem() {
    assertThat(respond("2", "refuse", "{}").path("error").toString())
        .isEqualTo("{\"code\":-32602,\"message\":\"`x` is required\"}");
    assertThat(respond("3", "nope", "{}").path("error").path("code").asInt()).isEqualTo(-32601);
  }

  @Test
  void serverFaultsAreInternalErrorsNamingTheRequestId() {
    assertThat(respond("4", "broken", "{}").path("error").toString())
        .isEqualTo(
            "{\"code\":-32603,\"message\":\"internal error (request id rid-4)\",\"data\":{\"requestId\":\"rid-4\"}}");
    assertThat(respond("5", "tools/call", "{\"name\":\"down\"}").path("error").path("message"))
        .hasToString("\"the database of tool `down` is unavailable (request id rid-5)\"");
  }

  /** The response to a tool call that is ended, while it runs, by {@code end}. */
  private ObjectNode endedWhileRunning(String id, Runnable end) throws Exception {
    CompletableFuture<ObjectNode> response =
        CompletableFuture.supplyAsync(() -> respond(id, "tools/call", "{\"name\":\"slow\"}"));
    assertThat(toolStarted.await(10, TimeUnit.SECONDS)).isTrue();
    end.run();
    return response.get(10, TimeUnit.SECONDS);
  }

  @Test
  void aToolCallTheClientCancelsIsAnsweredAsCancelled() throws Exception {
    ObjectNode cancelled =
        endedWhileRunning(
            "6",
            () ->
                requests.notified(
                    session,
                    new JsonRpcMessage.Notification(
                        "notifications/cancelled",
                        Json.NODES.objectNode().put("requestId", "6").put("reason", "user"))));
    assertThat(cancelled.path("error").toString())
        .isEqualTo("{\"code\":-32800,\"message\":\"Request cancelled\"}");
  }

  @Test
  void aToolCallStillRunningWhenTheServerStopsIsAbortedWithItsRequestId() throws Exception {
    assertThat(endedWhileRunning("7", requests::abortInFlight).path("error").toString())
        .isEqualTo(
            "{\"code\":-32603,\"message\":\"server shutting down (request id rid-7)\",\"data\":{\"requestId\":\"rid-7\"}}");
  }

  @Test
  void notificationsAboutTheRequestGoToItsNotifier() {
    List<JsonNode> sent = new ArrayList<>();
    McpRequests logging =
        new McpRequests(
            new Dispatcher<>(
                Map.<String, MethodHandler<McpCall>>of(
                    "work",
                    result((call, params) -> {
                      call.progress(0.5, 1, "half");
                      return Json.NODES.objectNode();
                    }))),
            sessions);
    JsonRpcMessage.Request request =
        new JsonRpcMessage.Request(Json.NODES.numberNode(8), "work", Json.NODES.objectNode());
    logging.respond(
        session,
        project.runtime(),
        Caller.internal("rid-8"),
        request,
        Optional.of(Json.NODES.stringNode("p")),
        sent::add);
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).toString())
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"p\",\"progress\":0.5,\"total\":1.0,\"message\":\"half\"}}");
  }
}
