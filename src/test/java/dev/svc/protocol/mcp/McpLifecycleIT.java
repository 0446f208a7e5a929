package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Shutdown with calls in flight, and cancellation of a running call. */
class McpLifecycleIT {
  private static final String SLOW_PROJECT =
      """
      == .svc
      name: slow
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/slow_count/config.terse
      description: Counts slowly.
      use: db
      statement: |
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {{ inputs.n }})
        SELECT count(*) AS counted FROM c
      inputs:
        n: {type: int}
      """;

  @TempDir Path dir;

  @Test
  void shutdownLetsEveryCallInFlightFinish() throws Exception {
    Instance instance = RunningProject.start(dir, SLOW_PROJECT);
    McpHttpClient client = new McpHttpClient(instance.baseUrl());
    client.initialize();
    List<CompletableFuture<JsonNode>> calls = new ArrayList<>();
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 6; i++) {
        calls.add(
            CompletableFuture.supplyAsync(
                () -> client.call("slow_count", "{\"n\": 1500000}"), threads));
      }
      Thread.sleep(300);
      instance.close();
      for (CompletableFuture<JsonNode> call : calls) {
        JsonNode result = call.get().path("result");
        assertThat(result.path("isError").asBoolean()).isFalse();
        assertThat(result.path("structuredContent").path("rows").get(0).path("counted").asLong())
            .isEqualTo(1_500_000);
      }
    }
  }

  @Test
  void aCancelledCallIsAnsweredWithRequestCancelled() throws Exception {
    try (Instance instance = RunningProject.start(dir, SLOW_PROJECT)) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      String body =
          "{\"jsonrpc\":\"2.0\",\"id\":\"slow-1\",\"method\":\"tools/call\",\"params\":{\"name\":\"slow_count\",\"arguments\":{\"n\":20000000}}}";
      CompletableFuture<McpHttpClient.Reply> slow =
          CompletableFuture.supplyAsync(() -> client.post(body));
      Thread.sleep(300);
      assertThat(
              client
                  .post(
                      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"slow-1\",\"reason\":\"user\"}}")
                  .status())
          .isEqualTo(202);
      JsonNode response = slow.get().json();
      assertThat(response.path("id").asString()).isEqualTo("slow-1");
      assertThat(response.path("error").path("code").asInt()).isEqualTo(-32800);
    }
  }

  @Test
  void aSecondRequestWithTheIdOfOneInFlightIsRefusedAndTheCancelStillReachesTheFirst()
      throws Exception {
    try (Instance instance = RunningProject.start(dir, SLOW_PROJECT)) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      String call =
          "{\"jsonrpc\":\"2.0\",\"id\":\"dup\",\"method\":\"tools/call\",\"params\":{\"name\":\"slow_count\",\"arguments\":{\"n\":%d}}}";
      // a thread of its own: the common pool may be busy (one thread on two cores)
      java.util.function.Supplier<CompletableFuture<McpHttpClient.Reply>> startSlow =
          () -> {
            CompletableFuture<McpHttpClient.Reply> started = new CompletableFuture<>();
            Thread.ofVirtual()
                .start(() -> started.complete(client.post(call.formatted(400_000_000))));
            return started;
          };
      CompletableFuture<McpHttpClient.Reply> slow = startSlow.get();
      // the same id again, until the first call runs: refused, never run in its place
      JsonNode refused = null;
      for (int i = 0; i < 400 && refused == null; i++) {
        if (slow.isDone()) {
          slow = startSlow.get(); // it came while a quick one held the id, and was refused itself
        }
        JsonNode second = client.post(call.formatted(1)).json();
        if (second.has("error")) {
          refused = second;
        } else {
          Thread.sleep(50);
        }
      }
      assertThat(refused).as("a duplicate id while the first call runs").isNotNull();
      assertThat(refused.path("id").asString()).isEqualTo("dup");
      assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(refused.path("error").path("message").asString()).contains("still running");
      client.post(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"dup\"}}");
      JsonNode first = slow.get().json();
      assertThat(first.path("error").path("code").asInt()).isEqualTo(-32800);
    }
  }

  @Test
  void aStatelessClientThatClosesTheStreamOfItsRunningCallCancelsIt() throws Exception {
    String project =
        SLOW_PROJECT.replace("slow_count", "abandoned_count")
            + "timeout: 300\n"; // before the fix the call ran on to this deadline
    try (Instance instance = RunningProject.start(dir, project)) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      String meta =
          "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
              + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
      String call =
          "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"abandoned_count\","
              + "\"arguments\":{\"n\":4000000000}%s}}";
      // under 2026-07-28 closing the stream is the way to cancel over HTTP
      abandon(
          instance,
          call.formatted("," + meta),
          "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n"
              + "Mcp-Name: abandoned_count\r\n");
      String cancelled =
          "mcp_server_operation_duration_seconds_count{mcp_method_name=\"tools/call\","
              + "gen_ai_tool_name=\"abandoned_count\",error_type=\"-32800\"} 1";
      String metrics = "";
      for (int i = 0; i < 120 && !metrics.contains(cancelled); i++) {
        Thread.sleep(250);
        metrics =
            client
                .send(
                    java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create(instance.baseUrl() + "/metrics"))
                        .build())
                .body();
      }
      assertThat(metrics).contains(cancelled);
    }
  }

  /** Sends a tool call that answers on an SSE stream, and closes the connection as it runs. */
  private static void abandon(Instance instance, String body, String headers) throws Exception {
    byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", instance.port())) {
      socket
          .getOutputStream()
          .write(
              ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      + "Accept: text/event-stream\r\n"
                      + headers
                      + "Content-Length: "
                      + bytes.length
                      + "\r\n\r\n")
                  .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      socket.getOutputStream().write(bytes);
      socket.getOutputStream().flush();
      Thread.sleep(500);
    }
  }

  @Test
  void initializeParamsOfTheWrongShapeAreInvalidParamsNamingTheField() throws Exception {
    String info = "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}";
    String[][] cases = {
      {"\"protocolVersion\":20251125,\"capabilities\":{}," + info, "params.protocolVersion"},
      {"\"protocolVersion\":null,\"capabilities\":{}," + info, "params.protocolVersion"},
      {"\"capabilities\":{}," + info, "params.protocolVersion"},
      {
        "\"protocolVersion\":\"2025-11-25\",\"capabilities\":\"all\"," + info, "params.capabilities"
      },
      {"\"protocolVersion\":\"2025-11-25\"," + info, "params.capabilities"},
      {
        "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":[]",
        "params.clientInfo"
      },
      {"\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}", "params.clientInfo"},
      {
        "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":7,\"version\":\"1\"}",
        "params.clientInfo.name"
      },
      {
        "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\"}",
        "params.clientInfo.version"
      },
    };
    try (Instance instance = RunningProject.start(dir, SLOW_PROJECT)) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      for (String[] sent : cases) {
        McpHttpClient.Reply reply =
            client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                    + sent[0]
                    + "}}");
        assertThat(reply.status()).as(sent[0]).isEqualTo(200);
        assertThat(reply.header("Mcp-Session-Id")).as(sent[0]).isEmpty();
        JsonNode error = reply.json().path("error");
        assertThat(error.path("code").asInt()).as(sent[0]).isEqualTo(-32602);
        assertThat(error.path("message").asString()).as(sent[0]).contains("`" + sent[1] + "`");
      }
      McpHttpClient.Reply full =
          client.post(
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{"
                  + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"roots\":{}},"
                  + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\",\"title\":\"T\",\"icons\":[]},"
                  + "\"_meta\":{},\"unknown\":1}}");
      assertThat(full.json().path("result").path("protocolVersion").asString())
          .isEqualTo("2025-11-25");
      assertThat(full.header("Mcp-Session-Id")).isPresent();
    }
  }
}
