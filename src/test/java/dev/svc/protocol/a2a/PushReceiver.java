package dev.svc.protocol.a2a;

import com.sun.net.httpserver.HttpServer;
import dev.svc.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * A real HTTP receiver of push notifications on a loopback address (JDK HTTP server): records every
 * request and answers with a fixed status and headers.
 */
final class PushReceiver implements AutoCloseable {
  /** One request as received. */
  record Received(String path, Map<String, List<String>> headers, JsonNode body) {
    String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().getFirst())
          .findFirst()
          .orElse("");
    }
  }

  private final HttpServer server;
  private final String address;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final LinkedBlockingQueue<Received> queue = new LinkedBlockingQueue<>();

  private PushReceiver(HttpServer server, String address) {
    this.server = server;
    this.address = address;
  }

  /** Answers 200 to everything. */
  static PushReceiver start(String address, int port) {
    return start(address, port, 200, Map.of());
  }

  /**
   * @param port 0 for any free port
   */
  static PushReceiver start(String address, int port, int status, Map<String, String> headers) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 0);
      PushReceiver receiver = new PushReceiver(server, address);
      server.createContext(
          "/",
          exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Received request =
                new Received(
                    exchange.getRequestURI().toString(),
                    Map.copyOf(exchange.getRequestHeaders()),
                    body.length == 0 ? Json.NODES.nullNode() : Json.MAPPER.readTree(body));
            receiver.received.add(request);
            receiver.queue.add(request);
            headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
          });
      server.start();
      return receiver;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** {@code http://<address>:<port>}. */
  String url() {
    return "http://" + address + ":" + port();
  }

  List<Received> received() {
    return List.copyOf(received);
  }

  /** The next request, waiting up to 10 s for it. */
  Received await() throws InterruptedException {
    Received next = queue.poll(10, TimeUnit.SECONDS);
    if (next == null) {
      throw new AssertionError("no push notification reached " + url() + " within 10 s");
    }
    return next;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
