package dev.svc.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.svc.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * A model provider inside a test: answers each request with the next scripted reply (JSON, an SSE
 * stream, an error, or a reply that never ends) and records what it was sent. The test writes the
 * provider's JSON itself, so the same server plays OpenAI-compatible, Gemini and Vertex.
 */
public final class ScriptedModelServer implements AutoCloseable {

  /** One scripted answer. */
  public sealed interface Reply {}

  /** A complete JSON body. */
  public record JsonReply(int status, JsonNode body) implements Reply {}

  /** {@code text/event-stream}: one {@code data:} event per item. */
  public record SseReply(List<String> events) implements Reply {}

  /**
   * An answer that never ends: headers, then a keep-alive byte every few milliseconds until the
   * client goes away (recorded in {@link #disconnected()}) or 60 s pass.
   */
  public record EndlessReply(boolean sse) implements Reply {}

  /** Headers, then not one byte for 60 s: a provider that hung after it began to answer. */
  public record SilentReply(boolean sse) implements Reply {}

  /** Any body with any content type: a proxy's error page, a server that is not the provider. */
  public record RawReply(int status, String contentType, String body) implements Reply {}

  /**
   * An answer that never stops growing: the start of a JSON answer (or of one SSE event) and then
   * text without end, 64 KiB at a time, until the client hangs up or 64 MiB are sent.
   */
  public record FloodReply(boolean sse) implements Reply {}

  /** An SSE stream that starts only when {@code gate} opens: for tasks a test watches run. */
  public record GatedReply(CountDownLatch gate, List<String> events) implements Reply {}

  /** A complete JSON body, sent only when {@code gate} opens (nothing before it). */
  public record GatedJsonReply(CountDownLatch gate, String body) implements Reply {}

  /** A request as the server received it. */
  public record Recorded(
      String method, String path, String query, Map<String, String> headers, JsonNode body) {
    public String header(String name) {
      return headers.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), "");
    }
  }

  private final HttpServer server;
  private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();
  private volatile Reply otherwise;
  private final List<Recorded> requests = java.util.Collections.synchronizedList(new ArrayList<>());
  private final java.util.concurrent.Semaphore started = new java.util.concurrent.Semaphore(0);
  private final CountDownLatch disconnected = new CountDownLatch(1);
  private final BlockingQueue<Recorded> arrivals = new LinkedBlockingQueue<>();

  private ScriptedModelServer(HttpServer server) {
    this.server = server;
  }

  public static ScriptedModelServer start() {
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      ScriptedModelServer scripted = new ScriptedModelServer(server);
      server.createContext("/", scripted::handle);
      server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
      server.start();
      return scripted;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public ScriptedModelServer reply(Reply reply) {
    replies.add(reply);
    return this;
  }

  /** Drops the scripted replies no request has taken yet. */
  public ScriptedModelServer clearReplies() {
    replies.clear();
    return this;
  }

  /**
   * Answers with {@code reply} whenever no scripted reply is left (by default such a request gets a
   * 500 "no scripted reply left").
   */
  public ScriptedModelServer otherwise(Reply reply) {
    otherwise = reply;
    return this;
  }

  public ScriptedModelServer json(String body) {
    return reply(new JsonReply(200, Json.MAPPER.readTree(body)));
  }

  public ScriptedModelServer error(int status, String body) {
    return reply(new JsonReply(status, Json.MAPPER.readTree(body)));
  }

  public ScriptedModelServer sse(String... events) {
    return reply(new SseReply(List.of(events)));
  }

  /** Replies with {@code events} once the returned latch is counted down. */
  public CountDownLatch gated(String... events) {
    CountDownLatch gate = new CountDownLatch(1);
    reply(new GatedReply(gate, List.of(events)));
    return gate;
  }

  /** Answers the next request with {@code body} once the returned gate opens. */
  public CountDownLatch gatedJson(String body) {
    CountDownLatch gate = new CountDownLatch(1);
    reply(new GatedJsonReply(gate, body));
    return gate;
  }

  public ScriptedModelServer raw(int status, String contentType, String body) {
    return reply(new RawReply(status, contentType, body));
  }

  public ScriptedModelServer flood(boolean sse) {
    return reply(new FloodReply(sse));
  }

  public ScriptedModelServer silent(boolean sse) {
    return reply(new SilentReply(sse));
  }

  public ScriptedModelServer endless(boolean sse) {
    return reply(new EndlessReply(sse));
  }

  public List<Recorded> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  public Recorded request(int index) {
    return requests().get(index);
  }

  /** Waits for the next request to arrive (up to 30 s). */
  public Recorded awaitRequest() throws InterruptedException {
    Recorded r = arrivals.poll(30, TimeUnit.SECONDS);
    if (r == null) {
      throw new AssertionError("no request reached the scripted model server");
    }
    return r;
  }

  /** Waits until a client hung up on an endless reply; false after 30 s. */
  public boolean awaitDisconnect() throws InterruptedException {
    return disconnected.await(30, TimeUnit.SECONDS);
  }

  /** Waits until one more endless or gated reply has started; false after 30 s. */
  public boolean awaitEndlessStarted() throws InterruptedException {
    return started.tryAcquire(30, TimeUnit.SECONDS);
  }

  private void handle(HttpExchange exchange) throws IOException {
    byte[] bytes = exchange.getRequestBody().readAllBytes();
    Map<String, String> headers = new LinkedHashMap<>();
    exchange
        .getRequestHeaders()
        .forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), String.join(", ", v)));
    JsonNode body;
    try {
      body = bytes.length == 0 ? Json.NODES.missingNode() : Json.MAPPER.readTree(bytes);
    } catch (tools.jackson.core.JacksonException e) {
      body = Json.NODES.stringNode(new String(bytes, StandardCharsets.UTF_8)); // e.g. a form
    }
    Recorded recorded =
        new Recorded(
            exchange.getRequestMethod(),
            exchange.getRequestURI().getPath(),
            exchange.getRequestURI().getRawQuery() == null
                ? ""
                : exchange.getRequestURI().getRawQuery(),
            headers,
            body);
    requests.add(recorded);
    arrivals.add(recorded);
    Reply reply = replies.poll();
    if (reply == null) {
      reply = otherwise;
    }
    if (reply == null) {
      reply =
          new JsonReply(
              500, Json.MAPPER.readTree("{\"error\":{\"message\":\"no scripted reply left\"}}"));
    }
    try (exchange) {
      switch (reply) {
        case JsonReply json -> {
          byte[] out = Json.MAPPER.writeValueAsBytes(json.body());
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(json.status(), out.length);
          exchange.getResponseBody().write(out);
        }
        case SseReply sse -> {
          exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
          exchange.sendResponseHeaders(200, 0);
          OutputStream out = exchange.getResponseBody();
          for (String event : sse.events()) {
            out.write(("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
          }
        }
        case GatedReply gated -> {
          exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
          exchange.sendResponseHeaders(200, 0);
          OutputStream out = exchange.getResponseBody();
          out.write(": waiting\n\n".getBytes(StandardCharsets.UTF_8));
          out.flush();
          started.release();
          try {
            gated.gate().await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          for (String event : gated.events()) {
            out.write(("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
          }
        }
        case GatedJsonReply gated -> {
          started.release();
          try {
            gated.gate().await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          byte[] out = gated.body().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, out.length);
          exchange.getResponseBody().write(out);
        }
        case RawReply raw -> {
          byte[] out = raw.body().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", raw.contentType());
          exchange.sendResponseHeaders(raw.status(), out.length);
          exchange.getResponseBody().write(out);
        }
        case FloodReply flood -> {
          exchange
              .getResponseHeaders()
              .set("Content-Type", flood.sse() ? "text/event-stream" : "application/json");
          exchange.sendResponseHeaders(200, 0);
          OutputStream out = exchange.getResponseBody();
          String start = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"";
          byte[] chunk = new byte[64 * 1024];
          java.util.Arrays.fill(chunk, (byte) 'x');
          try {
            out.write(((flood.sse() ? "data: " : "") + start).getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 1024; i++) {
              out.write(chunk);
            }
          } catch (IOException e) {
            disconnected.countDown();
          }
        }
        case SilentReply silent -> {
          exchange
              .getResponseHeaders()
              .set("Content-Type", silent.sse() ? "text/event-stream" : "application/json");
          exchange.sendResponseHeaders(200, 0);
          exchange.getResponseBody().flush();
          started.release();
          try {
            Thread.sleep(60_000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        case EndlessReply endless -> {
          exchange
              .getResponseHeaders()
              .set("Content-Type", endless.sse() ? "text/event-stream" : "application/json");
          exchange.sendResponseHeaders(200, 0);
          OutputStream out = exchange.getResponseBody();
          started.release();
          byte[] tick = (endless.sse() ? ": tick\n\n" : " ").getBytes(StandardCharsets.UTF_8);
          long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          try {
            while (System.nanoTime() < end) {
              out.write(tick);
              out.flush();
              Thread.sleep(20);
            }
          } catch (IOException e) {
            disconnected.countDown();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
