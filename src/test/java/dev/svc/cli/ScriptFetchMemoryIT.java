package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Large fetches, for real: svc runs as its own process with a 256 MiB heap and exits on an {@code
 * OutOfMemoryError}, as the launcher runs it. One call that fetches many large responses at once,
 * or sends many large requests at once (each within the fetch limits), must get an answer and leave
 * the server serving.
 */
class ScriptFetchMemoryIT {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final byte[] BODY = new byte[8 * 1024 * 1024];

  static {
    Arrays.fill(BODY, (byte) 'a');
  }

  private static final String NO_ROOM =
      "fetch failed: the requests and responses of scripts' fetches hold all the memory svc keeps";

  private static final String PROJECT =
      """
      == .svc
      name: fetching
      scripts:
        fetch:
          allow_private_networks: true # the test server is on loopback
      == app/tools/grab/config.terse
      description: Fetches n large bodies at once.
      handler: handler.ts
      inputs:
        n: {type: int, description: How many.}
        base: {type: string, description: Where from.}
      == app/tools/grab/handler.ts
      export default async ({ inputs }: { inputs: { n: number; base: string } }) => {
        const all = await Promise.allSettled(
          Array.from({ length: inputs.n }, (_, i) =>
            fetch(inputs.base + "/" + i).then(async (r) => (await r.text()).length)),
        );
        return all.map((r) => (r.status === "fulfilled" ? r.value : String(r.reason.message)));
      };
      == app/tools/send/config.terse
      description: Posts n bodies of 10 MB at once.
      handler: handler.ts
      inputs:
        n: {type: int, description: How many.}
        base: {type: string, description: Where to.}
      == app/tools/send/handler.ts
      export default async ({ inputs }: { inputs: { n: number; base: string } }) => {
        const body = "x".repeat(10_000_000);
        const all = await Promise.allSettled(
          Array.from({ length: inputs.n }, () =>
            fetch(inputs.base + "/slow-post", { method: "POST", body }).then((r) => r.text())),
        );
        return all.map((r) => (r.status === "fulfilled" ? r.value : String(r.reason.message)));
      };
      """;

  @TempDir Path dir;
  HttpServer upstream;
  String base;

  @BeforeEach
  void startUpstream() throws IOException {
    upstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    upstream.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    upstream.createContext(
        "/slow-post",
        x -> {
          try {
            Thread.sleep(2000); // meanwhile the request waits in svc's heap
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          long read = x.getRequestBody().transferTo(OutputStream.nullOutputStream());
          byte[] answer = Long.toString(read).getBytes(StandardCharsets.US_ASCII);
          x.sendResponseHeaders(200, answer.length);
          try (OutputStream out = x.getResponseBody()) {
            out.write(answer);
          }
        });
    upstream.createContext(
        "/",
        x -> {
          x.getResponseHeaders().add("Content-Type", "text/plain");
          x.sendResponseHeaders(200, BODY.length);
          try (OutputStream out = x.getResponseBody()) {
            out.write(BODY);
          }
        });
    upstream.start();
    base = "http://127.0.0.1:" + upstream.getAddress().getPort();
  }

  @AfterEach
  void stopUpstream() {
    upstream.stop(0);
  }

  @Test
  void manyLargeResponsesAtOnceFailSomeFetchesAndTheServerLivesOn() throws Exception {
    // before: the bodies were read into the JVM's heap, all at once, whatever the heap had room
    // for: the process ran out of memory and exited
    try (SvcProcess svc = serve()) {
      McpHttpClient client = new McpHttpClient(svc.baseUrl());
      client.initialize();

      JsonNode many = client.call("grab", "{\"n\": 64, \"base\": \"" + base + "\"}");
      assertThat(svc.alive()).as(svc.err()).isTrue();
      JsonNode outcomes = many.path("result").path("structuredContent").path("result");
      assertThat(outcomes.size()).as(many.toString()).isEqualTo(64);
      assertThat(outcomes)
          .allSatisfy(outcome ->
              assertThat(outcome.asString())
                  .satisfiesAnyOf(
                      text -> assertThat(text).isEqualTo(Integer.toString(BODY.length)),
                      text -> assertThat(text).startsWith(NO_ROOM)));

      JsonNode one = client.call("grab", "{\"n\": 1, \"base\": \"" + base + "\"}");
      assertThat(one.path("result").path("structuredContent").path("result"))
          .as(one.toString())
          .isEqualTo(JSON.readTree("[" + BODY.length + "]"));
      assertThat(svc.alive()).as(svc.err()).isTrue();
      assertThat(svc.stop()).isZero();
    }
  }

  @Test
  void manyLargeRequestsAtOnceFailSomeFetchesAndTheServerLivesOn() throws Exception {
    // before: each request's body was copied into the heap (its JSON, its text, its bytes) and
    // held there until sent, whatever the heap had room for: the process ran out of memory
    try (SvcProcess svc = serve()) {
      McpHttpClient client = new McpHttpClient(svc.baseUrl());
      client.initialize();

      JsonNode sent = client.call("send", "{\"n\": 32, \"base\": \"" + base + "\"}");
      assertThat(svc.alive()).as(svc.err()).isTrue();
      JsonNode posts = sent.path("result").path("structuredContent").path("result");
      assertThat(posts.size()).as(sent.toString()).isEqualTo(32);
      assertThat(posts)
          .allSatisfy(post ->
              assertThat(post.asString())
                  .satisfiesAnyOf(
                      text -> assertThat(text).isEqualTo("10000000"),
                      text -> assertThat(text).startsWith(NO_ROOM)))
          .anySatisfy(post -> assertThat(post.asString()).isEqualTo("10000000"));
      assertThat(svc.alive()).as(svc.err()).isTrue();
      assertThat(svc.stop()).isZero();
    }
  }

  /** {@code svc start} as its own process with a 256 MiB heap that exits on running out of it. */
  private SvcProcess serve() throws Exception {
    Path project = ProjectFixture.write(dir.resolve("project"), PROJECT);
    return SvcProcess.serving(
        dir,
        dir.resolve("run"),
        Map.of(),
        List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError"),
        "start",
        project.toString(),
        "-p",
        "0");
  }
}
