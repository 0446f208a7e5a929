package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.log.Level;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.RunningProject;
import dev.svc.testing.WireFuzzer;
import dev.svc.testing.WireFuzzer.Answer;
import dev.svc.testing.WireFuzzer.Request;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random requests at every route a server has and at paths it does not: any method (known, unknown,
 * malformed), paths with dot segments, encoded bytes, doubled slashes or 10,000 characters, query
 * strings, and headers a route does or does not expect. The server answers each with a status below
 * 500 (a method HTTP does not have excepted: {@code 501}), never closes without an answer, keeps
 * {@code HEAD} answers empty (but for a request Jetty cannot parse, whose 400 or 414 has the JSON
 * error and closes the connection), logs no error; and the Host/Origin policy holds on every route
 * alike: a request from a foreign {@code Origin} or to a foreign {@code Host} is never served
 * (4xx), where the same request from a loopback page would be.
 *
 * <p>Fixed seed; {@code -Dsvc.fuzz.seed=N -Dsvc.fuzz.requests=M} for another or a longer run.
 */
class HttpRoutesFuzzIT {
  private static final long SEED = Long.getLong("svc.fuzz.seed", 20261127L);
  private static final int REQUESTS = Integer.getInteger("svc.fuzz.requests", 1500);

  private static final List<String> METHODS =
      List.of(
          "GET", "POST", "DELETE", "PUT", "OPTIONS", "HEAD", "PATCH", "TRACE", "FOO", "get", "PRI");

  private static final List<String> PATHS =
      List.of(
          "/mcp",
          "/mcp/",
          "/MCP",
          "//mcp",
          "/mcp?x=1&x=2",
          "/mcp%00",
          "/mcp/../mcp",
          "/agent/chat",
          "/agent/chat/",
          "/agent/chat/.well-known/agent-card.json",
          "/agent/nobody",
          "/agent/",
          "/agent/%2e%2e/mcp",
          "/agent/chat/v1/message:send",
          "/.well-known/agent-card.json",
          "/.well-known/oauth-protected-resource",
          "/.well-known/oauth-protected-resource/mcp",
          "/.well-known/oauth-authorization-server",
          "/heartbeat",
          "/heartbeat?probe=1",
          "/ready",
          "/metrics",
          "/ui",
          "/ui/",
          "/",
          "/nope",
          "/%2e%2e/%2e%2e/etc/passwd",
          "/..;/mcp",
          "/mcp;jsessionid=1",
          "/%C0%AE%C0%AE/",
          "/%ZZ",
          "/\u00e9",
          "/heartbeat#fragment");

  private static final List<String> HOSTS =
      List.of("localhost", "127.0.0.1", "[::1]", "localhost:1234", "LOCALHOST");

  private static final List<String> FOREIGN_HOSTS =
      List.of("evil.example", "evil.example:80", "localhost.evil.example", "127.0.0.1.nip.io");

  private static final List<String> FOREIGN_ORIGINS =
      List.of(
          "http://evil.example",
          "https://localhost.evil.example",
          "null",
          "http://127.0.0.1.nip.io",
          "file://",
          "http://localhost@evil.example");

  @TempDir static Path dir;
  static Instance instance;

  @BeforeAll
  static void start() {
    instance =
        RunningProject.start(
            dir,
            """
            == .svc
            name: shop
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/get_product/config.terse
            description: A product.
            use: db
            statement: SELECT {{ inputs.id }} AS id
            inputs:
              id: {type: int, description: The product's id}
            == app/prompts/hello.terse
            messages:
              - role: user
                text: Hello
            == app/agents/chat/config.terse
            description: Chats.
            instruction: Be brief.
            model:
              provider: openai
              model: gpt-test
              options:
                base_url: http://127.0.0.1:9/v1
                api_key: test-key
            """);
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  @Test
  void randomRequestsAtEveryRouteGetAnAnswerAndForeignPagesAndHostsAreNeverServed() {
    Random random = new Random(SEED);
    List<String> faults = new ArrayList<>();
    int foreign = 0;
    try (CapturedLog log = CapturedLog.asJson(Level.WARN)) {
      for (int i = 0; i < REQUESTS && faults.size() < 10; i++) {
        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
        Request request = request(random, kind);
        Answer answer = WireFuzzer.exchange(instance.port(), request);
        String fault = check(request, kind, answer);
        if (kind != Kind.LOCAL) {
          foreign++;
        }
        if (fault != null) {
          faults.add("seed " + SEED + " #" + i + ": " + fault + "\n  request: " + request.shown());
        }
      }
      assertThat(faults).as("answers to random requests").isEmpty();
      assertThat(foreign).as("requests from foreign pages or to foreign hosts").isPositive();
      assertThat(WireFuzzer.errorLines(log.text())).as("errors in svc's log").isEmpty();
    }
    Answer heartbeat =
        WireFuzzer.exchange(
            instance.port(),
            new Request("GET", "/heartbeat", Map.of("Host", "localhost"), new byte[0]));
    assertThat(heartbeat.status()).isEqualTo(200);
  }

  /** Whom a request comes from, as the Host/Origin policy sees it. */
  private enum Kind {
    LOCAL,
    FOREIGN_ORIGIN,
    FOREIGN_HOST
  }

  private static Request request(Random random, Kind kind) {
    String method = METHODS.get(random.nextInt(METHODS.size()));
    String path =
        random.nextInt(20) == 0
            ? "/" + "p".repeat(10_000)
            : PATHS.get(random.nextInt(PATHS.size()));
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(
        "Host",
        kind == Kind.FOREIGN_HOST
            ? FOREIGN_HOSTS.get(random.nextInt(FOREIGN_HOSTS.size()))
            : HOSTS.get(random.nextInt(HOSTS.size())));
    if (kind == Kind.FOREIGN_ORIGIN) {
      headers.put("Origin", FOREIGN_ORIGINS.get(random.nextInt(FOREIGN_ORIGINS.size())));
    } else if (random.nextInt(4) == 0) {
      headers.put("Origin", "http://localhost:5173");
    }
    List<String[]> optional =
        List.of(
            new String[] {"Accept", "application/json, text/event-stream"},
            new String[] {"Accept", "text/event-stream"},
            new String[] {"Accept", "*/*"},
            new String[] {"Content-Type", "application/json"},
            new String[] {"Content-Type", "text/plain"},
            new String[] {"Mcp-Session-Id", "not-a-session"},
            new String[] {"MCP-Protocol-Version", "2025-11-25"},
            new String[] {"MCP-Protocol-Version", "2026-07-28"},
            new String[] {"A2A-Version", "1.0"},
            new String[] {"Authorization", "Bearer x.y.z"},
            new String[] {"Last-Event-ID", "0"},
            new String[] {"Access-Control-Request-Method", "POST"},
            new String[] {"Access-Control-Request-Headers", "content-type, mcp-session-id"},
            new String[] {"Range", "bytes=0-1"},
            new String[] {"Expect", "100-continue"},
            new String[] {"X-Forwarded-Host", "evil.example"},
            new String[] {"X-Forwarded-Proto", "javascript"},
            new String[] {"Accept-Encoding", "gzip"});
    for (int h = random.nextInt(5); h > 0; h--) {
      String[] header = optional.get(random.nextInt(optional.size()));
      headers.put(header[0], header[1]);
    }
    byte[] body =
        switch (random.nextInt(4)) {
          case 0 -> new byte[0];
          case 1 -> "{}".getBytes(StandardCharsets.UTF_8);
          case 2 ->
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}"
                  .getBytes(StandardCharsets.UTF_8);
          default -> "not json".getBytes(StandardCharsets.UTF_8);
        };
    return new Request(method, path, headers, body);
  }

  /** What is wrong with the answer, or null. */
  private static String check(Request request, Kind kind, Answer answer) {
    if (answer.status() == WireFuzzer.REFUSED_WHILE_SENT) {
      return null;
    }
    if (answer.status() == WireFuzzer.NO_ANSWER) {
      return "no complete answer within 30 s";
    }
    if (answer.status() == 0) {
      return "no HTTP answer (read: " + answer.body().length() + " characters)";
    }
    boolean unknownMethod =
        !List.of("GET", "POST", "DELETE", "PUT", "OPTIONS", "HEAD", "PATCH", "TRACE")
            .contains(request.method());
    if (answer.status() >= 500 && !(unknownMethod && answer.status() == 501)) {
      return "status " + answer.status() + ": " + shorten(answer.body());
    }
    // a request Jetty cannot parse (a path such as /%ZZ, or of 10,000 characters) reaches its error
    // handler as method "BAD", so its 400 or 414 carries the JSON error even to a HEAD; the
    // connection closes after it
    boolean unparsed = List.of(400, 414, 431).contains(answer.status());
    if (request.method().equals("HEAD") && !answer.body().isEmpty() && !unparsed) {
      return "a HEAD answer with a body";
    }
    if (kind != Kind.LOCAL && answer.status() < 400) {
      return "served ("
          + answer.status()
          + ") to a request "
          + (kind == Kind.FOREIGN_HOST ? "to a foreign Host" : "from a foreign Origin");
    }
    if (kind != Kind.LOCAL && answer.headers().containsKey("access-control-allow-origin")) {
      return "CORS headers for a foreign page: " + answer.headers();
    }
    return null;
  }

  private static String shorten(String text) {
    return text.length() > 300 ? text.substring(0, 300) + "…" : text;
  }
}
