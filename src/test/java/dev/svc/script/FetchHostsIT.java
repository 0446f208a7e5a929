package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.svc.net.AddressPolicy;
import dev.svc.net.HostResolver;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the fetch client keeps per host it reached: a handler that fetches a URL its caller chose (a
 * link preview, a webhook test) lets that caller name a new host with every call, and a domain with
 * a wildcard DNS record has as many names as the caller likes, all of them public.
 */
class FetchHostsIT {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  HttpServer server;
  int port;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.2", 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext(
        "/",
        x -> {
          byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
          x.sendResponseHeaders(200, body.length);
          try (OutputStream out = x.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    port = server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void aCallerNamingANewHostEachTimeLeavesAtMostTheBoundOfHostsBehind() throws Exception {
    // every name under rotate.test resolves to the one server, as *.attacker.example would
    HostResolver wildcard =
        host -> {
          if (!host.endsWith(".rotate.test")) {
            throw new UnknownHostException(host);
          }
          return List.of(InetAddress.ofLiteral("127.0.0.2"));
        };
    AddressPolicy outside = ScriptFetchDestinationsIT.allowing("127.0.0.2/32");
    int hosts = HttpFetch.MAX_HOSTS + 100;
    try (HttpFetch http = new HttpFetch(new FetchMemory(64L << 20), outside, wildcard)) {
      // sixteen at a time, so that clients are replaced while fetches of theirs still run
      for (int first = 0; first < hosts; first += 16) {
        List<CompletableFuture<FetchAnswer>> batch = new ArrayList<>();
        for (int i = first; i < Math.min(hosts, first + 16); i++) {
          batch.add(
              http.start(
                  "{\"url\":\"http://h" + i + ".rotate.test:" + port + "/\"}",
                  Duration.ofSeconds(10)));
        }
        for (CompletableFuture<FetchAnswer> fetch : batch) {
          String answer = fetch.join().json();
          assertThat(JSON.readTree(answer).path("body").asString()).as(answer).isEqualTo("ok");
        }
      }
      // before: one destination (its connection pool, queue and timers, ~2.7 KiB of heap once its
      // connection closed) per host ever fetched, for as long as the process ran
      assertThat(http.hostsKept()).isBetween(1, HttpFetch.MAX_HOSTS + 16); // + those in flight

      String again =
          http.start("{\"url\":\"http://h0.rotate.test:" + port + "/\"}", Duration.ofSeconds(10))
              .join()
              .json();
      assertThat(JSON.readTree(again).path("body").asString()).as(again).isEqualTo("ok");
    }
  }
}
