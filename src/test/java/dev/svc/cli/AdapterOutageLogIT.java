package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Redis that goes away under load, for real: the test starts its own {@code redis-server} on a
 * free port, serves a project whose adapter points at it, stops it, fires 500 calls, and starts it
 * again. The log must say so in a few lines (the first failure in full, summaries, one recovery
 * line), not one line per call, while {@code /metrics} counts every failure.
 */
class AdapterOutageLogIT {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final int CALLS = 500;

  @TempDir Path dir;
  private Process redis;

  @AfterEach
  void stopRedis() throws InterruptedException {
    if (redis != null) {
      redis.destroy();
      redis.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void anOutageIsLoggedOnceInFullThenSummarisedThenRecoveredWhileMetricsCountEveryCall()
      throws Exception {
    int port = freePort();
    redis = startRedis(port);
    Path project =
        ProjectFixture.write(
            dir.resolve("project"),
            """
            == .svc
            name: outage
            == app/adapters/cache.terse
            connector: redis
            connection_string: "redis://127.0.0.1:%d/0"
            == app/tools/ping/config.terse
            description: Pings the cache.
            use: cache
            statement: PING
            """
                .formatted(port));
    try (SvcProcess svc = SvcProcess.starting(dir, project, "--log-format", "json")) {
      McpHttpClient client = new McpHttpClient(svc.baseUrl());
      client.initialize();
      assertThat(client.call("ping", "{}").path("result").path("isError").asBoolean(true))
          .isFalse();

      stop(redis);
      List<JsonNode> replies = callConcurrently(client, CALLS);
      assertThat(replies)
          .allSatisfy(reply -> {
            assertThat(reply.path("error").path("code").asInt())
                .as(reply.toString())
                .isEqualTo(-32603);
            assertThat(reply.path("error").path("message").asString()).contains("request id");
          });

      // summaries come when their window ends, with no further call
      List<JsonNode> lines = awaitLines(svc, all -> summaries(all).sum() >= CALLS);
      List<JsonNode> db =
          lines.stream().filter(l -> l.path("tag").asString().equals("db")).toList();
      List<JsonNode> first =
          db.stream().filter(l -> l.path("msg").asString().contains("a call failed")).toList();
      assertThat(first).as(svc.err()).hasSize(1);
      assertThat(first.getFirst().path("level").asString()).isEqualTo("error");
      assertThat(first.getFirst().path("adapter").asString()).isEqualTo("cache");
      assertThat(first.getFirst().path("tool").asString()).isEqualTo("ping");
      assertThat(first.getFirst().path("error").asString()).contains("redis adapter `cache`");
      String firstRequest = first.getFirst().path("request_id").asString();
      assertThat(replies)
          .as("the request id of the full line is one a client was told")
          .anyMatch(r -> r.path("error").path("message").asString().contains(firstRequest));
      List<JsonNode> summaries =
          db.stream().filter(l -> l.path("msg").asString().contains("calls failed in")).toList();
      assertThat(summaries(lines).sum()).isEqualTo(CALLS);
      assertThat(summaries.getFirst().path("msg").asString())
          .matches("adapter cache: [0-9,]+ calls failed in the last \\d+\\.\\d s: .*cache.*");
      assertThat(lines).as(svc.err()).hasSizeLessThan(10);
      assertThat(svc.err()).doesNotContain("database unavailable");

      Map<String, Double> metrics = scrape(svc.baseUrl() + "/metrics");
      assertThat(sample(metrics, "db_client_operation_duration_seconds_count", "unavailable"))
          .isEqualTo(CALLS);
      assertThat(sample(metrics, "svc_tool_call_duration_seconds_count", "server_error"))
          .isEqualTo(CALLS);

      redis = startRedis(port);
      int extra = 0;
      while (client.call("ping", "{}").has("error")) {
        extra++; // pooled connections from before the outage may fail once more
        assertThat(extra).as(svc.err()).isLessThan(50);
      }
      List<JsonNode> recovered =
          awaitLines(svc, all -> all.stream().anyMatch(AdapterOutageLogIT::isRecovery)).stream()
              .filter(AdapterOutageLogIT::isRecovery)
              .toList();
      assertThat(recovered).hasSize(1);
      assertThat(recovered.getFirst().path("level").asString()).isEqualTo("warn");
      assertThat(recovered.getFirst().path("failed").asLong()).isEqualTo(CALLS + extra);
      assertThat(recovered.getFirst().path("msg").asString())
          .matches(
              "adapter cache: recovered after \\d+\\.\\d s, "
                  + String.format(java.util.Locale.ROOT, "%,d", CALLS + extra)
                  + " calls failed");
      assertThat(svc.stop()).isZero();
    }
  }

  private static List<JsonNode> callConcurrently(McpHttpClient client, int calls) throws Exception {
    List<Future<JsonNode>> futures = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      for (int i = 0; i < calls; i++) {
        futures.add(pool.submit(() -> client.call("ping", "{}")));
      }
    }
    List<JsonNode> replies = new ArrayList<>();
    for (Future<JsonNode> future : futures) {
      replies.add(future.get());
    }
    return replies;
  }

  private static java.util.stream.LongStream summaries(List<JsonNode> lines) {
    return lines.stream()
        .filter(l -> l.path("msg").asString().contains("calls failed in the last"))
        .mapToLong(l -> l.path("failed").asLong());
  }

  private static boolean isRecovery(JsonNode line) {
    return line.path("msg").asString().contains("recovered after");
  }

  /** The log lines, once they satisfy {@code wanted} (a summary comes when its window ends). */
  private static List<JsonNode> awaitLines(SvcProcess svc, Predicate<List<JsonNode>> wanted)
      throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      List<JsonNode> lines = svc.err().lines().map(JSON::readTree).toList();
      if (wanted.test(lines)) {
        return lines;
      }
      if (System.nanoTime() > end) {
        throw new AssertionError(
            "the log lines waited for did not come within 30 s:\n" + svc.err());
      }
      Thread.sleep(100);
    }
  }

  private static double sample(Map<String, Double> metrics, String name, String errorType) {
    return metrics.entrySet().stream()
        .filter(e -> e.getKey().startsWith(name + "{"))
        .filter(e -> e.getKey().contains("error_type=\"" + errorType + "\""))
        .mapToDouble(Map.Entry::getValue)
        .sum();
  }

  private static Map<String, Double> scrape(String url) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    Map<String, Double> samples = new java.util.HashMap<>();
    for (String line : response.body().split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        int space = line.lastIndexOf(' ');
        samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
      }
    }
    return samples;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** A {@code redis-server} of this machine on {@code port}, without persistence, answering. */
  private Process startRedis(int port) throws Exception {
    Path binary =
        List.of("/usr/bin/redis-server", "/usr/sbin/redis-server", "/usr/local/bin/redis-server")
            .stream()
            .map(Path::of)
            .filter(Files::isExecutable)
            .findFirst()
            .orElseThrow(() ->
                new AssertionError(
                    "redis-server is not installed: apt-get install redis-server (see"
                        + " CONTRIBUTING.md)"));
    Path work = Files.createDirectories(dir.resolve("redis"));
    Process process =
        new ProcessBuilder(
                binary.toString(),
                "--port",
                String.valueOf(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                work.toString())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("redis.log").toFile())
            .start();
    long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < end) {
      if (answersPing(port)) {
        return process;
      }
      if (!process.isAlive()) {
        break;
      }
      Thread.sleep(50);
    }
    process.destroyForcibly();
    throw new AssertionError(
        "redis-server did not start on port "
            + port
            + ":\n"
            + Files.readString(work.resolve("redis.log")));
  }

  private static void stop(Process process) throws InterruptedException {
    process.destroy();
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("redis-server stops").isTrue();
  }

  private static boolean answersPing(int port) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(1000);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] reply = in.readNBytes(7);
      return new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
    } catch (IOException e) {
      return false;
    }
  }
}
