package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.ProjectFixture;
import dev.svc.testing.StatelessMcpClient;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A load balancer can take a stopping svc out of rotation without a failed request: after SIGTERM
 * {@code /ready} answers 503 at once while {@code /heartbeat} answers 200 and requests (on new
 * connections too) are served for {@code server.limits.drain_delay}; then svc stops accepting and
 * finishes what is in flight.
 *
 * <p>The load acts as a balancer's traffic does: a health check polls {@code /ready} every 100 ms,
 * and once it answers anything but 200 the instance is out of rotation and gets no new requests
 * (requests already sent go on). What counts, for each request sent: <b>served</b> is status 200
 * with a JSON-RPC result; <b>refused before sending</b> is a connection that could not be opened
 * ({@link ConnectException}: it would only happen if svc stopped listening before the balancer saw
 * {@code /ready} turn); anything else is a <b>failure</b>: another status, a JSON-RPC error, a body
 * that is not JSON, or a connection that broke after the request was sent. None of the last two may
 * happen.
 *
 * <p>A client that keeps opening connections to an instance after it stopped listening can see a
 * connection reset (the kernel resets handshakes svc never accepted); that is what {@code
 * drain_delay} and a balancer watching {@code /ready} prevent, and what this test pins.
 */
class GracefulDrainIT {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final int CONCURRENCY = 8;

  @TempDir Path dir;

  @Test
  void aKeepAliveLoadAtConcurrencyEightLosesNoRequestOnSigterm() throws Exception {
    Path project =
        ProjectFixture.write(
            dir.resolve("project"),
            """
            == .svc
            name: draining
            server:
              limits:
                drain_delay: 2
                drain_timeout: 5
                connections_per_client: 0
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/one/config.terse
            description: One.
            use: db
            statement: SELECT 1 AS one
            """);
    try (SvcProcess svc = SvcProcess.starting(dir, project, "--log-format", "json")) {
      String base = svc.baseUrl();
      HttpClient probes = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      assertThat(get(probes, base + "/ready").statusCode()).isEqualTo(200);
      assertThat(get(probes, base + "/ready").body()).isEqualTo("{\"status\":\"ready\"}");

      HttpClient load = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      AtomicInteger served = new AtomicInteger();
      AtomicInteger servedAfterSigterm = new AtomicInteger();
      AtomicInteger refusedBeforeSending = new AtomicInteger();
      AtomicLong sigtermAt = new AtomicLong(Long.MAX_VALUE);
      AtomicBoolean withdrawn = new AtomicBoolean();
      Thread.ofVirtual()
          .start(() -> { // the balancer's health check
            HttpClient check = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            while (!withdrawn.get()) {
              try {
                if (get(check, base + "/ready").statusCode() != 200) {
                  withdrawn.set(true);
                }
                Thread.sleep(100);
              } catch (IOException e) {
                withdrawn.set(true);
              } catch (InterruptedException e) {
                return;
              }
            }
          });
      ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
      CountDownLatch stopped = new CountDownLatch(CONCURRENCY);
      StatelessMcpClient bodies = new StatelessMcpClient(base);
      for (int i = 0; i < CONCURRENCY; i++) {
        Thread.ofVirtual()
            .start(() -> {
              try {
                long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (System.nanoTime() < end && !withdrawn.get()) {
                  long sent = System.nanoTime();
                  switch (call(load, base, bodies)) {
                    case Outcome.Served s -> {
                      served.incrementAndGet();
                      if (sent > sigtermAt.get()) {
                        servedAfterSigterm.incrementAndGet();
                      }
                    }
                    case Outcome.RefusedBeforeSending r -> {
                      refusedBeforeSending.incrementAndGet();
                      return;
                    }
                    case Outcome.Failed f ->
                        failures.add(
                            f.what()
                                + " (sent "
                                + (sent - sigtermAt.get()) / 1_000_000
                                + " ms after SIGTERM, answered after "
                                + (System.nanoTime() - sent) / 1_000_000
                                + " ms)");
                  }
                }
              } finally {
                stopped.countDown();
              }
            });
      }
      // a cold JVM on a busy machine takes a while to answer its first calls
      long warm = System.nanoTime() + Duration.ofSeconds(15).toNanos();
      while (served.get() < 10 * CONCURRENCY && failures.isEmpty() && System.nanoTime() < warm) {
        Thread.sleep(50);
      }
      assertThat(failures).as("failed requests before SIGTERM").isEmpty();
      assertThat(served.get()).as("requests served before SIGTERM").isPositive();

      sigtermAt.set(System.nanoTime());
      svc.terminate();
      int readyStatus = awaitReadyStatus(probes, base + "/ready", 503, Duration.ofMillis(1_500));
      assertThat(readyStatus).as("/ready soon after SIGTERM").isEqualTo(503);
      HttpResponse<String> ready = get(probes, base + "/ready");
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(JSON.readTree(ready.body()).path("status").asString()).isEqualTo("stopping");
      HttpResponse<String> heartbeat = get(probes, base + "/heartbeat");
      assertThat(heartbeat.statusCode()).as("/heartbeat during the drain delay").isEqualTo(200);

      assertThat(stopped.await(40, TimeUnit.SECONDS)).as("the load ended").isTrue();
      assertThat(svc.awaitExit(Duration.ofSeconds(20))).isZero();
      assertThat(failures).as("failed requests; svc wrote:%n%s", svc.err()).isEmpty();
      assertThat(servedAfterSigterm.get())
          .as("requests sent after SIGTERM and served (the drain delay)")
          .isPositive();
      assertThat(withdrawn.get()).as("the health check saw /ready turn").isTrue();
      assertThat(refusedBeforeSending.get())
          .as("requests refused because svc stopped listening before the balancer withdrew it")
          .isZero();
    }
  }

  private sealed interface Outcome {
    record Served() implements Outcome {}

    record RefusedBeforeSending() implements Outcome {}

    record Failed(String what) implements Outcome {}
  }

  private static Outcome call(HttpClient client, String base, StatelessMcpClient bodies) {
    ObjectNode params = StatelessMcpClient.params("{\"name\":\"one\",\"arguments\":{}}");
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + "/mcp"))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(bodies.body("tools/call", params)));
    String[] headers = StatelessMcpClient.standardHeaders("tools/call", params);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    HttpResponse<String> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return refusedToConnect(e)
          ? new Outcome.RefusedBeforeSending()
          : new Outcome.Failed("connection failed: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome.Failed("interrupted");
    }
    if (response.statusCode() != 200) {
      return new Outcome.Failed(
          "status " + response.statusCode() + " " + response.headers().map() + response.body());
    }
    try {
      JsonNode body = JSON.readTree(response.body());
      if (!body.has("result") || body.has("error")) {
        return new Outcome.Failed("not a JSON-RPC result: " + response.body());
      }
      return new Outcome.Served();
    } catch (RuntimeException e) {
      return new Outcome.Failed("not JSON: " + response.body());
    }
  }

  private static boolean refusedToConnect(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException) {
        return true;
      }
    }
    return false;
  }

  private static HttpResponse<String> get(HttpClient client, String url)
      throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Polls {@code url} until it answers {@code wanted}, at most {@code limit}; the last status. */
  private static int awaitReadyStatus(HttpClient client, String url, int wanted, Duration limit)
      throws IOException, InterruptedException {
    long end = System.nanoTime() + limit.toNanos();
    int status = get(client, url).statusCode();
    while (status != wanted && System.nanoTime() < end) {
      Thread.sleep(20);
      status = get(client, url).statusCode();
    }
    return status;
  }
}
