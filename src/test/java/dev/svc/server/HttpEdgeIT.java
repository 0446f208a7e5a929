package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.cli.Instance;
import dev.svc.log.Level;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.RawHttp;
import dev.svc.testing.RunningProject;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the HTTP edge does with hostile and broken clients, over real sockets: foreign origins on
 * every route, slow headers and bodies, too many connections, malformed framing, oversized bodies.
 */
class HttpEdgeIT {
  private static final String ECHO_TOOL =
      """
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/echo/config.terse
      description: Echo a number.
      use: db
      statement: SELECT {{ inputs.n }} AS n
      inputs:
        n: {type: int}
      """;

  @TempDir static Path dir;
  static Instance instance;
  static int port;

  @BeforeAll
  static void start() {
    instance =
        RunningProject.start(
            dir,
            """
            == .svc
            name: edge
            version: "1.0.0"
            server:
              allowed_origins: ["https://app.example.com"]
              limits:
                max_body_mb: 1
                header_timeout: 1
                body_timeout: 2
            """
                + ECHO_TOOL);
    port = instance.port();
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  private CapturedLog log;

  @AfterEach
  void restoreLogging() {
    if (log != null) {
      log.close();
    }
  }

  private void captureLog() {
    log = CapturedLog.at(Level.DEBUG);
  }

  private static RawHttp.Answer exchange(String request) throws IOException {
    try (RawHttp http = RawHttp.connect(port)) {
      return http.send(request).read();
    }
  }

  @Test
  void agentRoutesRefuseForeignOriginsAndAnswerCorsOnlyForAllowedOnes() throws IOException {
    RawHttp.Answer foreign =
        exchange(
            "OPTIONS /agent/helper HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\n"
                + "Access-Control-Request-Method: POST\r\n\r\n");
    assertThat(foreign.status()).isEqualTo(403);
    assertThat(foreign.header("Access-Control-Allow-Origin")).isEmpty();
    assertThat(foreign.body()).contains("Origin not allowed");

    String message = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{}}";
    RawHttp.Answer post =
        exchange(
            "POST /agent/helper HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\n"
                + "Content-Type: application/json\r\nContent-Length: "
                + message.length()
                + "\r\n\r\n"
                + message);
    assertThat(post.status()).isEqualTo(403);
    assertThat(post.header("Access-Control-Allow-Origin")).isEmpty();

    for (String allowed : List.of("https://app.example.com", "http://localhost:5173")) {
      RawHttp.Answer preflight =
          exchange(
              "OPTIONS /agent/helper HTTP/1.1\r\nHost: localhost\r\nOrigin: "
                  + allowed
                  + "\r\nAccess-Control-Request-Method: POST\r\n\r\n");
      assertThat(preflight.status()).as(allowed).isEqualTo(204);
      assertThat(preflight.header("Access-Control-Allow-Origin")).contains(allowed);
    }
  }

  @Test
  void metricsAndHeartbeatApplyTheHostCheckToo() throws IOException {
    for (String path : List.of("/metrics", "/heartbeat")) {
      RawHttp.Answer foreign = exchange("GET " + path + " HTTP/1.1\r\nHost: evil.example\r\n\r\n");
      assertThat(foreign.status()).as(path).isEqualTo(403);
      assertThat(foreign.body()).as(path).contains("Host not allowed");
      RawHttp.Answer local =
          exchange("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n");
      assertThat(local.status()).as(path).isEqualTo(200);
    }
  }

  @Test
  void aClientSendingItsHeadersSlowlyIsDisconnectedAtTheHeaderDeadline() throws IOException {
    long started = System.nanoTime();
    boolean closed = false;
    try (RawHttp http = RawHttp.connect(port)) {
      http.send("POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
      for (int i = 0; i < 40 && !closed; i++) { // a byte every 250 ms for up to 10 s
        try {
          http.send("a");
          closed = http.closedWithin(Duration.ofMillis(250));
        } catch (SocketException e) {
          closed = true;
        }
      }
    }
    assertThat(closed).as("closed by the server while it still sent header bytes").isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    assertThat(exchange("GET /heartbeat HTTP/1.1\r\nHost: localhost\r\n\r\n").status())
        .isEqualTo(200);
  }

  @Test
  void aTlsClientHelloOnThePlainPortIsAnswered400AndClosedAtOnce() throws Exception {
    // svc serves plain HTTP only (TLS is the proxy's): a stray https client or a scanner's
    // handshake must hold nothing open, half a ClientHello included
    SSLEngine engine = SSLContext.getDefault().createSSLEngine("attacker.example", port);
    engine.setUseClientMode(true);
    ByteBuffer hello = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
    engine.wrap(ByteBuffer.allocate(0), hello);
    byte[] half = Arrays.copyOf(hello.array(), hello.position() / 2);
    try (RawHttp http = RawHttp.connect(port)) {
      assertThat(http.send(half).read().status()).isEqualTo(400);
      assertThat(http.closedWithin(Duration.ofSeconds(5))).isTrue();
    }
    try (SSLSocket tls =
        (SSLSocket) SSLContext.getDefault().getSocketFactory().createSocket("127.0.0.1", port)) {
      tls.setSoTimeout(10_000); // a hang fails here rather than blocking the suite
      assertThatThrownBy(tls::startHandshake).isInstanceOf(SSLException.class);
    }
    assertThat(exchange("GET /heartbeat HTTP/1.1\r\nHost: localhost\r\n\r\n").status())
        .isEqualTo(200);
  }

  @Test
  void aClientSendingOnlyBlankLinesIsDisconnectedAtTheHeaderDeadline() throws IOException {
    // Jetty skips empty lines before a request line and stays at the request's start: without
    // counting them as the head's first bytes, a CRLF every few seconds held a connection forever
    long started = System.nanoTime();
    boolean closed = false;
    try (RawHttp http = RawHttp.connect(port)) {
      for (int i = 0; i < 40 && !closed; i++) { // a blank line every 250 ms for up to 10 s
        try {
          http.send("\r\n");
          closed = http.closedWithin(Duration.ofMillis(250));
        } catch (SocketException e) {
          closed = true;
        }
      }
    }
    assertThat(closed).as("closed by the server while it still sent blank lines").isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void aKeptAliveConnectionWaitingForItsNextRequestOutlivesTheHeaderDeadline() throws IOException {
    try (RawHttp http = RawHttp.connect(port)) {
      assertThat(http.send("GET /heartbeat HTTP/1.1\r\nHost: localhost\r\n\r\n").read().status())
          .isEqualTo(200);
      assertThat(http.closedWithin(Duration.ofSeconds(3)))
          .as("an idle connection is Jetty's idle timeout's, not the header deadline's")
          .isFalse();
      assertThat(http.send("GET /heartbeat HTTP/1.1\r\nHost: localhost\r\n\r\n").read().status())
          .isEqualTo(200);
    }
  }

  @Test
  void aBodySentTooSlowlyIsAnsweredWith408AtTheBodyDeadline() throws Exception {
    try (RawHttp http = RawHttp.connect(port)) {
      http.send(
          "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
              + "Accept: application/json\r\nContent-Length: 100\r\n\r\n{");
      CompletableFuture<RawHttp.Answer> answer =
          CompletableFuture.supplyAsync(() -> {
            try {
              return http.read();
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          });
      for (int i = 0; i < 40 && !answer.isDone(); i++) { // a byte every 250 ms for up to 10 s
        try {
          http.send(" ");
        } catch (SocketException e) {
          break;
        }
        Thread.sleep(250);
      }
      RawHttp.Answer timedOut = answer.get();
      assertThat(timedOut.status()).isEqualTo(408);
      assertThat(timedOut.header("Content-Type")).contains("application/json");
      assertThat(timedOut.body()).contains("\"error\"").contains("2 s");
      assertThat(timedOut.header("Connection")).contains("close");
    }
  }

  @Test
  void anInvalidChunkSizeIs400AndLogsNoError() throws IOException {
    captureLog();
    RawHttp.Answer answer =
        exchange(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Accept: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n");
    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.header("Content-Type")).contains("application/json");
    assertThat(answer.body()).startsWith("{\"error\":");
    assertThat(log.text()).doesNotContain("ERROR");
  }

  @Test
  void anUnsupportedHttpVersionIs505WithAShortJsonBody() throws IOException {
    RawHttp.Answer answer = exchange("GET /mcp HTTP/9.9\r\nHost: localhost\r\n\r\n");
    assertThat(answer.status()).isEqualTo(505);
    assertThat(answer.header("Content-Type")).contains("application/json");
    assertThat(answer.body()).startsWith("{\"error\":").doesNotContain("<html");
  }

  @Test
  void aMalformedRequestLineIs400WithAShortJsonBody() throws IOException {
    RawHttp.Answer answer = exchange("GET /mcp\u0001 HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.body()).startsWith("{\"error\":").doesNotContain("<html");
  }

  @Test
  void anOversizedBodyIsAlwaysAnswered413WithAJsonBodyTheClientReads() throws Exception {
    byte[] eightMegabytes = new byte[8 * 1024 * 1024];
    java.util.Arrays.fill(eightMegabytes, (byte) 'x');
    List<String> framings =
        List.of(
            "Content-Length: " + eightMegabytes.length + "\r\n", "Transfer-Encoding: chunked\r\n");
    for (int round = 0; round < 6; round++) {
      for (String framing : framings) {
        boolean chunked = framing.startsWith("Transfer");
        try (RawHttp http = RawHttp.connect(port)) {
          http.send(
              "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  + "Accept: application/json\r\n"
                  + framing
                  + "\r\n");
          CompletableFuture<Void> sending =
              CompletableFuture.runAsync(() -> {
                try {
                  if (chunked) {
                    http.send(Integer.toHexString(eightMegabytes.length) + "\r\n");
                  }
                  http.send(eightMegabytes);
                  if (chunked) {
                    http.send("\r\n0\r\n\r\n");
                  }
                } catch (IOException e) {
                  // the server may close once it has answered and read enough
                }
              });
          RawHttp.Answer answer = http.read();
          assertThat(answer.status()).as(framing).isEqualTo(413);
          assertThat(answer.header("Content-Type")).contains("application/json");
          assertThat(answer.header("Connection")).contains("close");
          assertThat(answer.body()).contains("Payload Too Large").contains("1 MiB");
          sending.get();
        }
      }
    }
  }

  @Test
  void aCompressedBodyIs415NotAParseErrorAndIsNeverInflated() throws Exception {
    // a gzip of 4 MiB can stand for gigabytes: svc reads bodies as sent
    java.io.ByteArrayOutputStream zipped = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(zipped)) {
      gzip.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes());
    }
    byte[] body = zipped.toByteArray();
    try (RawHttp http = RawHttp.connect(port)) {
      http.send(
          "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
              + "Accept: application/json\r\nContent-Encoding: gzip\r\nContent-Length: "
              + body.length
              + "\r\n\r\n");
      http.send(body);
      RawHttp.Answer answer = http.read();
      assertThat(answer.status()).isEqualTo(415);
      assertThat(answer.header("Accept-Encoding")).contains("identity");
      assertThat(answer.body())
          .contains("svc reads request bodies as sent, without a Content-Encoding (got gzip)");
    }
    try (RawHttp http = RawHttp.connect(port)) {
      String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
      http.send(
          "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
              + "Accept: application/json\r\nContent-Encoding: identity\r\nContent-Length: "
              + ping.length()
              + "\r\n\r\n"
              + ping);
      assertThat(http.read().status()).isNotEqualTo(415);
    }
  }

  @Test
  void aTransferCodingOtherThanChunkedIs501NotABodyReadAsIfPlain() throws Exception {
    for (String codings : List.of("gzip, chunked", "x-custom ,chunked")) {
      try (RawHttp http = RawHttp.connect(port)) {
        http.send(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Accept: application/json\r\nTransfer-Encoding: "
                + codings
                + "\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
        RawHttp.Answer answer = http.read();
        assertThat(answer.status()).as(codings).isEqualTo(501);
        assertThat(answer.body())
            .contains("in no other transfer coding (got " + codings.split(",")[0].strip() + ")");
      }
    }
  }

  @Test
  void connectionsBeyondThePerClientCapAreClosedAtOnceAndFreedSlotsServeAgain() throws IOException {
    try (Instance capped =
        RunningProject.start(
            dir.resolve("capped"),
            """
            == .svc
            name: capped
            server:
              limits:
                connections_per_client: 3
            """
                + ECHO_TOOL)) {
      List<RawHttp> held = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          RawHttp http = RawHttp.connect(capped.port());
          held.add(http);
          assertThat(
                  http.send("GET /heartbeat HTTP/1.1\r\nHost: localhost\r\n\r\n").read().status())
              .isEqualTo(200);
        }
        try (RawHttp fourth = RawHttp.connect(capped.port())) {
          assertThat(fourth.closedWithin(Duration.ofSeconds(5))).isTrue();
        }
        held.removeFirst().close();
        RawHttp again = RawHttp.connect(capped.port());
        held.add(again);
        RawHttp.Answer answer = null;
        for (int attempt = 0; attempt < 50 && answer == null; attempt++) {
          try {
            answer = again.send("GET /heartbeat HTTP/1.1\r\nHost: localhost\r\n\r\n").read();
          } catch (IOException e) { // the server may not have seen the close yet: retry
            again.close();
            held.remove(again);
            sleep(50);
            again = RawHttp.connect(capped.port());
            held.add(again);
          }
        }
        assertThat(answer).isNotNull();
        assertThat(answer.status()).isEqualTo(200);
      } finally {
        held.forEach(RawHttp::close);
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
