package dev.svc.net;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Bodies read up to a limit, against a real HTTP server on loopback. */
class LimitedBodyTest {
  HttpServer server;
  HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/small",
        exchange -> {
          byte[] body = "{\"ok\":true}".getBytes();
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.createContext(
        "/endless",
        exchange -> {
          exchange.sendResponseHeaders(503, 0); // chunked, without end but the connection's
          byte[] chunk = new byte[64 * 1024];
          try (OutputStream out = exchange.getResponseBody()) {
            for (int i = 0; i < 100_000; i++) { // 6 GiB, were it read
              out.write(chunk);
            }
          } catch (IOException e) {
            // the client stopped reading: what is expected
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
    http.close();
  }

  HttpResponse<Optional<byte[]>> get(String path, long limit) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    return http.send(HttpRequest.newBuilder(uri).build(), LimitedBody.upTo(limit));
  }

  @Test
  void aBodyWithinTheLimitIsReadWhole() throws Exception {
    HttpResponse<Optional<byte[]>> answer = get("/small", 11);

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body())
        .hasValueSatisfying(b -> assertThat(b).asString().isEqualTo("{\"ok\":true}"));
  }

  @Test
  void aBodyPastTheLimitIsEmpty_unreadBeyondIt_andTheStatusStays() throws Exception {
    assertThat(get("/small", 10).body()).isEmpty();

    HttpResponse<Optional<byte[]>> endless = get("/endless", 1024 * 1024);
    assertThat(endless.statusCode()).isEqualTo(503);
    assertThat(endless.body()).isEmpty();
  }

  @Test
  void aLimitBeyondWhatOneArrayHoldsIsClamped_notAFailure() throws Exception {
    assertThat(get("/small", Long.MAX_VALUE).body()).isPresent();
    assertThat(get("/small", -1).body()).isEmpty();
  }
}
