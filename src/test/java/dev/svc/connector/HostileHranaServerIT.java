package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.svc.call.Deadline;
import dev.svc.compile.StatementFixture;
import dev.svc.model.ConnectorKind;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Remote libSQL against a fake Hrana server that answers what no {@code sqld} does: bodies without
 * end, values that are not Hrana's, broken JSON. Each must end the call with a tool error or an
 * unavailable connector, within its deadline, and leave the connector serving.
 */
class HostileHranaServerIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @TempDir Path directory;
  private HttpServer server;
  private final AtomicLong probeBytesWritten = new AtomicLong();

  /** What the fake answers to a pipeline. */
  @FunctionalInterface
  interface Answer {
    void send(HttpExchange exchange) throws IOException;
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  /** A fake whose version probe answers {@code probe}, and each pipeline {@code pipeline}. */
  private Connector connectorTo(Answer probe, Answer pipeline) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext(
        "/",
        exchange -> {
          try (exchange) {
            exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            if (path.equals("/v3") || path.equals("/v2")) {
              probe.send(exchange);
            } else {
              pipeline.send(exchange);
            }
          } catch (IOException e) {
            // the client went away
          }
        });
    server.start();
    return Connectors.open(
        new ResolvedAdapter(
            "db",
            ConnectorKind.SQLITE,
            "http://127.0.0.1:" + server.getAddress().getPort(),
            Map.of(),
            directory));
  }

  private static Answer ok() {
    return exchange -> exchange.sendResponseHeaders(200, -1);
  }

  private static Answer json(String body) {
    return exchange -> {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, bytes.length);
      exchange.getResponseBody().write(bytes);
    };
  }

  /** A pipeline's reply whose one row has one column holding {@code value}. */
  private static Answer row(String value) {
    return json(
        "{\"baton\": null, \"results\": [{\"type\": \"ok\", \"response\": {\"type\": \"execute\","
            + " \"result\": {\"cols\": [{\"name\": \"v\"}], \"rows\": [["
            + value
            + "]], \"affected_row_count\": 0}}}, {\"type\": \"ok\", \"response\": {\"type\":"
            + " \"close\"}}]}");
  }

  private static JsonNode select(Connector connector) {
    return select(connector, TIMEOUT);
  }

  private static JsonNode select(Connector connector, Duration timeout) {
    return connector.execute(
        StatementFixture.sql(ConnectorKind.SQLITE, "SELECT v FROM t"),
        Map.of(),
        Deadline.after(timeout));
  }

  @Test
  void aWellFormedRowIsRead() throws IOException {
    try (Connector connector =
        connectorTo(ok(), row("{\"type\": \"integer\", \"value\": \"-9223372036854775808\"}"))) {
      assertThat(select(connector).toString()).isEqualTo("[{\"v\":-9223372036854775808}]");
    }
  }

  @Test
  void anIntegerOfAMillionDigitsIsRefusedNotParsed() throws IOException {
    // before: new BigInteger(text), quadratic in the digits: 200,000 digits took ~1 s, 1,000,000
    // ~20 s and 4,000,000 (4 MB, far under the result ceiling) minutes, past any deadline, and
    // the call then answered a number no SQLite column can hold
    String digits = "9".repeat(200_000);
    try (Connector connector =
        connectorTo(ok(), row("{\"type\": \"integer\", \"value\": \"" + digits + "\"}"))) {
      assertThatThrownBy(() -> select(connector))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessage(
              "sqlite adapter `db` answered a value that is not Hrana's: an integer that is not"
                  + " a 64-bit integer")
          .hasMessageNotContaining("999");
    }
  }

  @Test
  void valuesOfTheWrongShapeAreAServerFaultNotAnUnexpectedFailure() throws IOException {
    // before: NumberFormatException ("For input string: ...", the server's text in the log) and
    // IllegalArgumentException from base64: "failed unexpectedly"
    for (String value :
        List.of(
            "{\"type\": \"integer\", \"value\": \"12abc\"}",
            "{\"type\": \"integer\", \"value\": 1.5}",
            "{\"type\": \"integer\", \"value\": \"18446744073709551616\"}",
            "{\"type\": \"float\", \"value\": \"NaN-ish\"}",
            "{\"type\": \"blob\", \"base64\": \"!!not base64!!\"}")) {
      try (Connector connector = connectorTo(ok(), row(value))) {
        assertThatThrownBy(() -> select(connector))
            .as(value)
            .isInstanceOf(ConnectorUnavailableException.class)
            .hasMessageStartingWith("sqlite adapter `db` answered a value that is not Hrana's: ");
      }
      stop();
    }
  }

  @Test
  void aVersionProbeAnsweringWithoutEndIsCutOffUnread() throws IOException {
    // before: the probe's body was read whole into a String (BodyHandlers.ofString): 2 GB from
    // the server were 2 GB (4 GB as UTF-16) on the heap; here 64 MiB are all read
    long sent = 64L * 1024 * 1024;
    Answer endless =
        exchange -> {
          exchange.sendResponseHeaders(200, sent);
          OutputStream out = exchange.getResponseBody();
          byte[] chunk = new byte[64 * 1024];
          for (long written = 0; written < sent; written += chunk.length) {
            out.write(chunk);
            probeBytesWritten.addAndGet(chunk.length);
          }
        };
    try (Connector connector = connectorTo(endless, row("{\"type\": \"null\"}"))) {
      assertThatThrownBy(() -> connector.check(Deadline.after(TIMEOUT)))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessageContaining("answered the version probe with a body of more than");
    }
    assertThat(probeBytesWritten.get()).isLessThan(sent / 2);
  }

  @Test
  void aReplyDribbledPastTheDeadlineEndsTheCallAtItsDeadline() throws IOException {
    Answer dribble =
        exchange -> {
          exchange.sendResponseHeaders(200, 0); // chunked
          OutputStream out = exchange.getResponseBody();
          for (int i = 0; i < 40; i++) {
            out.write(' ');
            out.flush();
            try {
              Thread.sleep(250);
            } catch (InterruptedException e) {
              return;
            }
          }
        };
    try (Connector connector = connectorTo(ok(), dribble)) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> select(connector, Duration.ofSeconds(1)))
          .isInstanceOf(StatementFailedException.class)
          .hasMessageContaining("1 s");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(6));
    }
  }

  @Test
  void brokenDeeplyNestedOrMistypedRepliesAreAServerFault() throws IOException {
    for (Answer answer :
        List.of(
            json("{\"results\": [{\"type\": \"ok\", \"response\": "),
            json("[".repeat(100_000)),
            json("{\"results\": \"ok\"}"),
            json(
                "{\"results\": [{\"type\": \"ok\", \"response\": {\"result\": {\"cols\": 5,"
                    + " \"rows\": {\"a\": 1}}}}]}"),
            (Answer)
                exchange -> {
                  exchange.sendResponseHeaders(200, 1000);
                  exchange.getResponseBody().write("{\"results\": [".getBytes());
                  exchange.getResponseBody().flush();
                  exchange.getHttpContext().getServer(); // then the exchange closes, short
                })) {
      try (Connector connector = connectorTo(ok(), answer)) {
        try {
          JsonNode result = select(connector);
          assertThat(result.isArray()).as(result.toString()).isTrue();
        } catch (ConnectorUnavailableException | StatementFailedException expected) {
          assertThat(expected.getMessage()).contains("sqlite adapter `db`");
        }
      }
      stop();
    }
  }

  @Test
  void aRedirectIsNotFollowedAndSaysSo() throws IOException {
    // before: "the database rejected the request: the database reported an error without a
    // message", a tool error blaming the statement
    Answer redirect =
        exchange -> {
          exchange.getResponseHeaders().set("Location", "http://169.254.169.254/v3/pipeline");
          exchange.sendResponseHeaders(307, -1);
        };
    try (Connector connector = connectorTo(ok(), redirect)) {
      assertThatThrownBy(() -> select(connector))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessage(
              "sqlite adapter `db` at 127.0.0.1:"
                  + server.getAddress().getPort()
                  + " answered HTTP 307, a redirect, which svc does not follow: write the address"
                  + " it redirects to in the connection string");
    }
  }
}
