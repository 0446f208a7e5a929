package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RawHttp;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stopping under load loses no answer: a call still running at the drain limit gets a JSON-RPC
 * error, and requests on connections already open while draining are served, then their connections
 * closed, while new connections are refused.
 */
class ShutdownIT {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  private Instance start(int drainSeconds) {
    return RunningProject.start(
        dir,
        """
        == .svc
        name: stopping
        server:
          limits:
            drain_timeout: %d
        == app/tools/spin/config.terse
        description: Never ends on its own.
        timeout: 60
        == app/tools/spin/handler.ts
        export default () => { while (true) {} };
        == app/tools/quick/config.terse
        description: Answers at once.
        == app/tools/quick/handler.ts
        export default () => ({ quick: true });
        """
            .formatted(drainSeconds));
  }

  @Test
  void aCallStillRunningAtTheDrainLimitIsAnsweredServerShuttingDownWithItsId() throws Exception {
    Instance instance = start(1);
    McpHttpClient client = new McpHttpClient(instance.baseUrl());
    client.initialize();
    CompletableFuture<JsonNode> spinning =
        CompletableFuture.supplyAsync(() -> client.call("spin", "{}"));
    Thread.sleep(500);
    long stopping = System.nanoTime();
    CompletableFuture<Void> closed = CompletableFuture.runAsync(instance::close);

    JsonNode response = spinning.get(15, TimeUnit.SECONDS);
    assertThat(response.path("id").isMissingNode()).isFalse();
    JsonNode error = response.path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32603);
    assertThat(error.path("message").asString()).startsWith("server shutting down (request id ");
    assertThat(error.path("data").path("requestId").asString()).isNotBlank();
    closed.get(15, TimeUnit.SECONDS);
    assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(8));
  }

  @Test
  void aStatelessCallAtTheDrainLimitIsAnsweredAndAListenStreamEndsWithItsFinalResponse()
      throws Exception {
    Instance instance = start(1);
    StatelessMcpClient client = new StatelessMcpClient(instance.baseUrl());
    BlockingQueue<String> listening = client.listen("{\"toolsListChanged\":true}");
    CompletableFuture<JsonNode> spinning =
        CompletableFuture.supplyAsync(
            () -> client.post("tools/call", "{\"name\":\"spin\",\"arguments\":{}}").json());
    Thread.sleep(500);
    CompletableFuture<Void> closed = CompletableFuture.runAsync(instance::close);

    JsonNode error = spinning.get(15, TimeUnit.SECONDS).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32603);
    assertThat(error.path("message").asString()).startsWith("server shutting down");
    StringBuilder stream = new StringBuilder();
    long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (System.nanoTime() < end && !stream.toString().contains("closed:")) {
      String line = listening.poll(200, TimeUnit.MILLISECONDS);
      if (line != null) {
        stream.append(line).append('\n');
      }
    }
    assertThat(stream.toString())
        .contains("notifications/subscriptions/acknowledged")
        .containsPattern(
            "\"result\":\\{\"resultType\":\"complete\",\"_meta\":\\{\"io.modelcontextprotocol/subscriptionId\":\\d+}}")
        .contains("closed:");
    closed.get(15, TimeUnit.SECONDS);
  }

  @Test
  void requestsOnOpenConnectionsWhileDrainingAreServedAndNewConnectionsRefused() throws Exception {
    Instance instance = start(4);
    int port = instance.port();
    McpHttpClient client = new McpHttpClient(instance.baseUrl());
    client.initialize();
    String session = client.session().orElseThrow();
    try (RawHttp open = RawHttp.connect(port)) {
      assertThat(open.send("GET /heartbeat HTTP/1.1\r\nHost: localhost\r\n\r\n").read().status())
          .isEqualTo(200);
      CompletableFuture<JsonNode> spinning =
          CompletableFuture.supplyAsync(() -> client.call("spin", "{}"));
      Thread.sleep(300);
      CompletableFuture<Void> closed = CompletableFuture.runAsync(instance::close);
      awaitRefused(port);

      String call =
          "{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"tools/call\",\"params\":{\"name\":\"quick\",\"arguments\":{}}}";
      RawHttp.Answer answer =
          open.send(
                  "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                      + "Accept: application/json\r\nMcp-Session-Id: "
                      + session
                      + "\r\nContent-Length: "
                      + call.length()
                      + "\r\n\r\n"
                      + call)
              .read();
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.header("Connection")).contains("close");
      JsonNode served = JSON.readTree(answer.body());
      assertThat(served.path("id").asInt()).isEqualTo(41);
      assertThat(served.path("result").path("structuredContent").path("quick").asBoolean())
          .isTrue();
      assertThat(open.closedWithin(Duration.ofSeconds(5))).isTrue();

      assertThat(spinning.get(15, TimeUnit.SECONDS).path("error").path("code").asInt())
          .isEqualTo(-32603);
      closed.get(15, TimeUnit.SECONDS);
    }
  }

  /** Waits until the listening socket is closed (a new connection is refused). */
  private static void awaitRefused(int port) throws InterruptedException {
    for (int attempt = 0; attempt < 100; attempt++) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
      } catch (ConnectException e) {
        return;
      } catch (java.io.IOException e) {
        // not refused yet in another way: look again
      }
      Thread.sleep(20);
    }
    assertThatThrownBy(() -> new Socket("127.0.0.1", port).close())
        .isInstanceOf(ConnectException.class);
  }
}
