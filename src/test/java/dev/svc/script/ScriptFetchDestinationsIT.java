package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.model.IpNetwork;
import dev.svc.model.ScriptRef;
import dev.svc.model.Scripts;
import dev.svc.net.AddressPolicy;
import dev.svc.net.HostResolver;
import dev.svc.testing.ProjectFixture;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where a script's {@code fetch} may connect ({@code scripts.fetch}): real servers on loopback, an
 * inside one on 127.0.0.1 that must never be reached by default, and an "outside" one on 127.0.0.2
 * that tests admit through {@code allowed_networks}.
 */
class ScriptFetchDestinationsIT {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final String SCRIPTS =
      """
      == .svc
      name: fetching
      == app/tools/t/config.terse
      description: Fetches.
      == app/tools/t/handler.ts
      type P = { inputs: { url: string } };
      export default async ({ inputs }: P) => {
        try {
          const res = await fetch(inputs.url);
          return res.status + " " + (await res.text());
        } catch (e) { return (e as Error).name + ": " + (e as Error).message; }
      };
      """;

  @TempDir Path dir;
  final List<HttpServer> servers = new ArrayList<>();
  final List<PooledScriptRunner> runners = new ArrayList<>();
  final AtomicInteger insideHits = new AtomicInteger();
  int insidePort;
  int outsidePort;

  @BeforeEach
  void start() throws IOException {
    HttpServer inside = server("127.0.0.1");
    inside.createContext(
        "/",
        x -> {
          insideHits.incrementAndGet();
          reply(x, 200, "secret");
        });
    insidePort = inside.getAddress().getPort();
    HttpServer outside = server("127.0.0.2");
    outside.createContext("/ok", x -> reply(x, 200, "outside"));
    outside.createContext(
        "/to-inside",
        x -> {
          x.getResponseHeaders().add("Location", "http://127.0.0.1:" + insidePort + "/secret");
          reply(x, 302, "");
        });
    outside.createContext(
        "/to-localhost",
        x -> {
          x.getResponseHeaders().add("Location", "http://localhost:" + insidePort + "/secret");
          reply(x, 307, "");
        });
    outsidePort = outside.getAddress().getPort();
  }

  HttpServer server(String address) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(address, 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.start();
    servers.add(server);
    return server;
  }

  @AfterEach
  void stop() {
    runners.forEach(PooledScriptRunner::close);
    servers.forEach(s -> s.stop(0));
  }

  static void reply(com.sun.net.httpserver.HttpExchange exchange, int status, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  String fetch(AddressPolicy networks, String url) {
    Scripts scripts = ProjectFixture.model(dir, SCRIPTS).scripts();
    PooledScriptRunner runner =
        new PooledScriptRunner(
            new V8Engine(V8Engine.DEFAULT_HEAP_MB),
            scripts,
            new PooledScriptRunner.Settings(1, Duration.ofSeconds(30), false)
                .withFetchNetworks(networks));
    runners.add(runner);
    JsonNode payload =
        JSON.createObjectNode().set("inputs", JSON.createObjectNode().put("url", url));
    return runner
        .call(
            new ScriptRef("app/tools/t/handler.ts", "default"),
            payload,
            "t",
            Deadline.after(Duration.ofSeconds(20)),
            Caller.internal("test"))
        .asString();
  }

  String fetch(String url) {
    return fetch(AddressPolicy.PUBLIC_ONLY, url);
  }

  static AddressPolicy allowing(String... networks) {
    return new AddressPolicy(
        false, List.of(networks).stream().map(n -> IpNetwork.parse(n).orElseThrow()).toList());
  }

  @Test
  void loopbackLiteralsAreRefusedByDefaultWithAMessageThatSaysHowToOpenThem() {
    String url = "http://127.0.0.1:" + insidePort + "/secret";
    assertThat(fetch(url))
        .isEqualTo(
            "TypeError: fetch failed: "
                + url
                + " refused: 127.0.0.1, a loopback address; scripts' fetch reaches public addresses"
                + " unless scripts.fetch in .svc allows more");
    assertThat(fetch("http://[::1]:" + insidePort + "/secret"))
        .contains("refused: ::1, a loopback address");
    assertThat(fetch("http://[::ffff:127.0.0.1]:" + insidePort + "/secret"))
        .contains("a loopback address");
    assertThat(fetch("http://[::ffff:7f00:1]:" + insidePort + "/secret"))
        .contains("a loopback address");
    assertThat(insideHits).hasValue(0);
  }

  @Test
  void otherSpellingsOfLoopbackAreRefusedToo() {
    for (String host : List.of("2130706433", "0x7f.1", "0177.0.0.1", "127.1", "localhost")) {
      assertThat(fetch("http://" + host + ":" + insidePort + "/secret"))
          .as(host)
          .startsWith("TypeError: fetch failed: ")
          .doesNotContain("200 secret");
    }
    assertThat(fetch("http://localhost:" + insidePort + "/"))
        .containsPattern("localhost resolves to (127\\.0\\.0\\.1|::1), a loopback address");
    assertThat(insideHits).hasValue(0);
  }

  @Test
  void cloudMetadataIsRefusedEvenWhenPrivateNetworksAreAllowed() {
    AddressPolicy open = new AddressPolicy(true, List.of());
    assertThat(fetch(open, "http://169.254.169.254/latest/meta-data/"))
        .contains("169.254.169.254, a cloud metadata address");
    assertThat(fetch(open, "http://metadata.google.internal/computeMetadata/v1/"))
        .contains("metadata.google.internal is a cloud metadata service");
    assertThat(fetch("http://10.1.2.3/x"))
        .isEqualTo(
            "TypeError: fetch failed: http://10.1.2.3/x refused: 10.1.2.3, a private address;"
                + " scripts' fetch reaches public addresses unless scripts.fetch in .svc allows"
                + " more");
    assertThat(fetch("http://0.0.0.0:" + insidePort + "/")).contains("an unspecified address");
  }

  @Test
  void anAllowedNetworkEntryAdmitsItsAddressAndNoOther() {
    AddressPolicy one = allowing("127.0.0.2/32");
    assertThat(fetch(one, "http://127.0.0.2:" + outsidePort + "/ok")).isEqualTo("200 outside");
    assertThat(fetch(one, "http://127.0.0.1:" + insidePort + "/secret"))
        .contains("127.0.0.1, a loopback address");
    assertThat(insideHits).hasValue(0);
  }

  @Test
  void aRedirectToARefusedAddressIsRefused() {
    AddressPolicy one = allowing("127.0.0.2");
    assertThat(fetch(one, "http://127.0.0.2:" + outsidePort + "/to-inside"))
        .startsWith("TypeError: fetch failed: http://127.0.0.2:" + outsidePort + "/to-inside")
        .contains("refused: 127.0.0.1, a loopback address");
    assertThat(fetch(one, "http://127.0.0.2:" + outsidePort + "/to-localhost"))
        .containsPattern("localhost resolves to (127\\.0\\.0\\.1|::1), a loopback address");
    assertThat(insideHits).hasValue(0);
  }

  @Test
  void allowingPrivateNetworksAdmitsLoopbackAndItsRedirects() {
    AddressPolicy open = new AddressPolicy(true, List.of());
    assertThat(fetch(open, "http://127.0.0.1:" + insidePort + "/secret")).isEqualTo("200 secret");
    assertThat(fetch(open, "http://127.0.0.2:" + outsidePort + "/to-inside"))
        .isEqualTo("200 secret");
    assertThat(insideHits).hasValue(2);
  }

  @Test
  void aNameIsResolvedOnceAndTheConnectionGoesToTheAddressChecked() {
    // a rebinding name: public on the first lookup, loopback on any later one
    AtomicInteger lookups = new AtomicInteger();
    HostResolver rebinding =
        host -> {
          if (!host.equals("rebind.test")) {
            throw new UnknownHostException(host);
          }
          return List.of(
              InetAddress.ofLiteral(lookups.getAndIncrement() == 0 ? "127.0.0.2" : "127.0.0.1"));
        };
    try (HttpFetch http =
        new HttpFetch(new FetchMemory(64L << 20), allowing("127.0.0.2"), rebinding)) {
      String answer =
          http.start(
                  "{\"url\":\"http://rebind.test:" + outsidePort + "/ok\",\"method\":\"GET\"}",
                  Duration.ofSeconds(10))
              .join()
              .json();
      assertThat(JSON.readTree(answer).path("body").asString()).isEqualTo("outside");
      assertThat(lookups).hasValue(1);

      HostResolver inside = host -> List.of(InetAddress.ofLiteral("127.0.0.1"));
      try (HttpFetch refusing = new HttpFetch(new FetchMemory(64L << 20), allowing(), inside)) {
        assertThat(
                refusing
                    .start(
                        "{\"url\":\"http://db.internal:" + insidePort + "/\"}",
                        Duration.ofSeconds(10))
                    .join()
                    .json())
            .contains("db.internal resolves to 127.0.0.1, a loopback address");
      }
    }
    assertThat(insideHits).hasValue(0);
  }
}
