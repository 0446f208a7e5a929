package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.model.ScriptRef;
import dev.svc.model.Scripts;
import dev.svc.net.AddressPolicy;
import dev.svc.testing.ProjectFixture;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code fetch} inside the sandbox against a real HTTP server on loopback. */
class ScriptFetchIT {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final String SCRIPTS =
      """
      == .svc
      name: fetching
      == app/tools/t/config.terse
      description: Fetches.
      == app/tools/t/handler.ts
      type P = { inputs: { base: string } };
      export default async ({ inputs }: P) => {
        const res = await fetch(inputs.base + "/item");
        return { status: res.status, ok: res.ok, type: res.headers.get("Content-Type"), body: await res.json() };
      };
      export const post = async ({ inputs }: P) => {
        const res = await fetch(inputs.base + "/echo", {
          method: "POST",
          headers: { "X-Token": "t0k3n", "content-type": "application/json" },
          body: JSON.stringify({ q: "ü" }),
        });
        return await res.text();
      };
      export const both = async ({ inputs }: P) => {
        const [a, b] = await Promise.all([fetch(inputs.base + "/together?a"), fetch(inputs.base + "/together?b")]);
        return [a.status, await a.text(), b.status, await b.text()];
      };
      export const missing = async ({ inputs }: P) => {
        const res = await fetch(inputs.base + "/nothing-here");
        return { status: res.status, ok: res.ok };
      };
      export const refused = async ({ inputs }: P) => {
        try { await fetch(inputs.base + "/item"); return "fetched"; } catch (e) { return (e as Error).name + ": " + (e as Error).message; }
      };
      export const file = async () => {
        try { await fetch("file:///etc/passwd"); return "fetched"; } catch (e) { return (e as Error).message; }
      };
      export const huge = async ({ inputs }: P) => {
        try {
          await fetch(inputs.base + "/echo", { method: "POST", body: "x".repeat(17 * 1024 * 1024) });
          return "sent";
        } catch (e) { return (e as Error).name + ": " + (e as Error).message; }
      };
      export const slow = async ({ inputs }: P) => (await fetch(inputs.base + "/slow")).status;
      """;

  @TempDir Path dir;
  HttpServer server;
  PooledScriptRunner runner;
  String base;
  final CyclicBarrier together = new CyclicBarrier(2);

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext(
        "/item", x -> reply(x, 200, "application/json", "{\"id\":7,\"name\":\"lamp\"}"));
    server.createContext(
        "/echo",
        x -> {
          String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          reply(
              x,
              200,
              "text/plain; charset=utf-8",
              x.getRequestMethod() + " " + x.getRequestHeaders().getFirst("X-Token") + " " + body);
        });
    // answers only when both requests are in: sequential fetches would never get here together
    server.createContext(
        "/together",
        x -> {
          try {
            together.await(10, TimeUnit.SECONDS);
            reply(x, 200, "text/plain", x.getRequestURI().getQuery());
          } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
            reply(x, 500, "text/plain", "alone");
          }
        });
    server.createContext(
        "/slow",
        x -> {
          try {
            Thread.sleep(10_000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          reply(x, 200, "text/plain", "late");
        });
    server.createContext("/", x -> reply(x, 404, "text/plain", "not found"));
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
    Scripts scripts = ProjectFixture.model(dir, SCRIPTS).scripts();
    runner =
        new PooledScriptRunner(
            new V8Engine(V8Engine.DEFAULT_HEAP_MB),
            scripts,
            // the test server is on loopback (ScriptFetchDestinationsIT checks the default)
            new PooledScriptRunner.Settings(2, Duration.ofSeconds(30), false)
                .withFetchNetworks(new AddressPolicy(true, List.of())));
  }

  @AfterEach
  void stop() {
    runner.close();
    server.stop(0);
  }

  static void reply(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  JsonNode call(String export, String url, Duration timeout) {
    return runner.call(
        new ScriptRef("app/tools/t/handler.ts", export),
        JSON.readTree("{\"inputs\":{\"base\":\"" + url + "\"},\"tool\":\"t\"}"),
        "t",
        Deadline.after(timeout),
        Caller.internal("test"));
  }

  JsonNode call(String export) {
    return call(export, base, Duration.ofSeconds(20));
  }

  @Test
  void fetchReturnsStatusOkHeadersAndAJsonBody() {
    assertThat(call("default"))
        .isEqualTo(
            JSON.readTree(
                "{\"status\":200,\"ok\":true,\"type\":\"application/json\","
                    + "\"body\":{\"id\":7,\"name\":\"lamp\"}}"));
  }

  @Test
  void fetchSendsTheMethodHeadersAndBody() {
    assertThat(call("post").asString()).isEqualTo("POST t0k3n {\"q\":\"ü\"}");
  }

  @Test
  void twoFetchesInPromiseAllRunAtTheSameTime() {
    assertThat(call("both")).isEqualTo(JSON.readTree("[200,\"a\",200,\"b\"]"));
  }

  @Test
  void anErrorStatusIsAResponseThatIsNotOk() {
    assertThat(call("missing")).isEqualTo(JSON.readTree("{\"status\":404,\"ok\":false}"));
  }

  @Test
  void aFetchThatCannotConnectRejectsWithATypeError() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }

    assertThat(call("refused", "http://127.0.0.1:" + closedPort, Duration.ofSeconds(20)).asString())
        .startsWith("TypeError: fetch failed: ");
  }

  @Test
  void onlyHttpUrlsCanBeFetched() {
    assertThat(call("file").asString())
        .isEqualTo("fetch failed: only http and https URLs can be fetched, not file:///etc/passwd");
  }

  @Test
  void aFetchStillRunningAtTheDeadlineEndsTheCallWithATimeout() {
    assertThatThrownBy(() -> call("slow", base, Duration.ofSeconds(1)))
        .isInstanceOf(ScriptTimeoutException.class)
        .hasMessage("the script ran longer than 1 s");
  }

  @Test
  void aRequestLongerThanSvcSendsIsRefusedInsideTheSandbox() {
    // before: any body went to the JVM's heap, copied and held there until sent
    assertThat(call("huge").asString())
        .startsWith("TypeError: fetch: the request is 178258")
        .endsWith(" characters of JSON, more than the 16777216 svc sends: send less");
  }
}
