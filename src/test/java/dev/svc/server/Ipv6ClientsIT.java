package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.connector.Connectors;
import dev.svc.project.Environment;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.RawHttp;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An IPv6 client is its {@code /64} network, for {@code connections_per_client} and for the rate
 * limit of callers without credentials: a host sending from a new address of its {@code /64} each
 * time opens neither the cap nor a window again, and another {@code /64} is another client. The
 * addresses are real: four of a private (ULA) prefix put on the loopback interface for this test
 * (it needs {@code ip} and the right to add addresses, as CI's machine has) and removed after.
 */
class Ipv6ClientsIT {
  private static final String LAN = "fd5c:5fc:6464:1::";
  private static final List<String> ADDRESSES =
      List.of(LAN + "a", LAN + "b", LAN + "c", "fd5c:5fc:6464:2::a");

  @TempDir static Path dir;

  @BeforeAll
  static void addAddresses() throws Exception {
    for (String address : ADDRESSES) {
      ip("replace", address);
    }
  }

  @AfterAll
  static void removeAddresses() throws Exception {
    for (String address : ADDRESSES) {
      ip("del", address);
    }
  }

  @Test
  void connectionsFromAddressesOfOneSlash64CountTogetherAndAnotherSlash64IsAnotherClient()
      throws IOException {
    try (Instance capped =
        launch(
            dir.resolve("capped"),
            """
            == .svc
            name: capped
            server:
              limits:
                connections_per_client: 2
            """)) {
      List<RawHttp> held = new ArrayList<>();
      try {
        for (String from : List.of(LAN + "a", LAN + "b")) {
          RawHttp http = RawHttp.connect(address(from), address(LAN + "a"), capped.port());
          held.add(http);
          assertThat(heartbeat(http)).isEqualTo(200);
        }
        try (RawHttp third =
            RawHttp.connect(address(LAN + "c"), address(LAN + "a"), capped.port())) {
          assertThat(third.closedWithin(Duration.ofSeconds(5)))
              .as("a third address of the same /64 is the same client, at its cap")
              .isTrue();
        }
        try (RawHttp other =
            RawHttp.connect(address("fd5c:5fc:6464:2::a"), address(LAN + "a"), capped.port())) {
          assertThat(heartbeat(other)).as("another /64 is another client").isEqualTo(200);
        }
      } finally {
        for (RawHttp http : held) {
          http.close();
        }
      }
    }
  }

  @Test
  void aCallerWithoutCredentialsIsRateLimitedByItsSlash64() throws IOException {
    try (Instance limited =
        launch(
            dir.resolve("limited"),
            """
            == .svc
            name: limited
            """)) {
      assertThat(call(limited, LAN + "a")).isEqualTo(200);
      assertThat(call(limited, LAN + "b")).isEqualTo(200);
      assertThat(call(limited, LAN + "c"))
          .as("the third call from the same /64, past the limit of two a minute")
          .isEqualTo(429);
      assertThat(call(limited, "fd5c:5fc:6464:2::a")).as("another /64").isEqualTo(200);
    }
  }

  private static Instance launch(Path directory, String svcFile) {
    return Instance.launch(
        ProjectFixture.model(
            directory,
            svcFile
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: ":memory:"
                == app/tools/echo/config.terse
                description: Echo a number.
                use: db
                statement: SELECT {{ inputs.n }} AS n
                inputs:
                  n: {type: int}
                rate_limit: {requests: 2, per: 1m}
                """),
        new Instance.Options(
            Environment.of(Map.of()), directory, LAN + "a", 0, false, Connectors::open));
  }

  private static int heartbeat(RawHttp http) throws IOException {
    return http.send("GET /heartbeat HTTP/1.1\r\nHost: localhost\r\n\r\n").read().status();
  }

  /** A stateless MCP 2026-07-28 {@code tools/call} of {@code echo} from {@code from}. */
  private static int call(Instance instance, String from) throws IOException {
    String body =
        """
        {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"n":7},\
        "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",\
        "io.modelcontextprotocol/clientCapabilities":{},\
        "io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}}}}\
        """;
    try (RawHttp http = RawHttp.connect(address(from), address(LAN + "a"), instance.port())) {
      return http.send(
              "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  + "Accept: application/json, text/event-stream\r\n"
                  + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n"
                  + "Mcp-Name: echo\r\nContent-Length: "
                  + body.length()
                  + "\r\n\r\n"
                  + body)
          .read()
          .status();
    }
  }

  private static InetAddress address(String literal) {
    return InetAddress.ofLiteral(literal);
  }

  private static void ip(String verb, String address) throws Exception {
    List<String> command =
        new ArrayList<>(List.of("ip", "-6", "addr", verb, address + "/128", "dev", "lo"));
    if (!verb.equals("del")) {
      command.add("nodad");
    }
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue())
        .as("`%s` (this test needs root's right to add addresses to lo): %s", command, output)
        .isZero();
  }
}
