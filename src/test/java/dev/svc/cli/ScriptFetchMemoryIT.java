package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Large fetch responses, for real: svc runs as its own process with a 256 MiB heap and exits on an
 * {@code OutOfMemoryError}, as the launcher runs it. One call that fetches 64 large bodies at once
 * (8 MiB each, within the fetch limits) must get an answer and leave the server serving.
 */
class ScriptFetchMemoryIT {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final byte[] BODY = new byte[8 * 1024 * 1024];

  static {
    Arrays.fill(BODY, (byte) 'a');
  }

  @TempDir Path dir;

  @Test
  void manyLargeResponsesAtOnceFailSomeFetchesAndTheServerLivesOn() throws Exception {
    // before: the bodies were read into the JVM's heap, all at once, whatever the heap had room
    // for: the process ran out of memory and exited
    HttpServer bodies =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    bodies.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    bodies.createContext(
        "/",
        x -> {
          x.getResponseHeaders().add("Content-Type", "text/plain");
          x.sendResponseHeaders(200, BODY.length);
          try (OutputStream out = x.getResponseBody()) {
            out.write(BODY);
          }
        });
    bodies.start();
    try {
      Path project =
          ProjectFixture.write(
              dir.resolve("project"),
              """
              == .svc
              name: fetching
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
              """);
      String base = "http://127.0.0.1:" + bodies.getAddress().getPort();
      try (SvcProcess svc =
          SvcProcess.serving(
              dir,
              dir.resolve("run"),
              Map.of(),
              List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError"),
              "start",
              project.toString(),
              "-p",
              "0")) {
        McpHttpClient client = new McpHttpClient(svc.baseUrl());
        client.initialize();

        JsonNode many = client.call("grab", "{\"n\": 64, \"base\": \"" + base + "\"}");
        assertThat(svc.alive()).as(svc.err()).isTrue();
        JsonNode outcomes = many.path("result").path("structuredContent").path("result");
        assertThat(outcomes.size()).as(many.toString()).isEqualTo(64);
        for (JsonNode outcome : outcomes) {
          if (outcome.isNumber()) {
            assertThat(outcome.asInt()).isEqualTo(BODY.length);
          } else {
            assertThat(outcome.asString())
                .startsWith("fetch failed: the responses scripts are fetching hold all the memory");
          }
        }

        JsonNode one = client.call("grab", "{\"n\": 1, \"base\": \"" + base + "\"}");
        assertThat(one.path("result").path("structuredContent").path("result"))
            .as(one.toString())
            .isEqualTo(JSON.readTree("[" + BODY.length + "]"));
        assertThat(svc.alive()).as(svc.err()).isTrue();
        assertThat(svc.stop()).isZero();
      }
    } finally {
      bodies.stop(0);
    }
  }
}
