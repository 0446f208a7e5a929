package dev.svc.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small MCP client for tests, speaking raw HTTP so every status code and header can be asserted.
 * {@link #initialize()} opens a session that later calls send.
 */
public final class McpHttpClient {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private final HttpClient http = HttpClient.newHttpClient();
  private final URI uri;
  private final AtomicInteger ids = new AtomicInteger();
  private Optional<String> session = Optional.empty();
  private Optional<String> bearer = Optional.empty();

  public McpHttpClient(String baseUrl) {
    this.uri = URI.create(baseUrl + "/mcp");
  }

  /** One HTTP reply: status, headers and body (JSON, or the SSE text). */
  public record Reply(int status, HttpResponse<String> raw) {
    public JsonNode json() {
      return JSON.readTree(raw.body());
    }

    public String body() {
      return raw.body();
    }

    public Optional<String> header(String name) {
      return raw.headers().firstValue(name);
    }

    /** The JSON-RPC messages of an SSE body, in order. */
    public List<JsonNode> events() {
      List<JsonNode> events = new ArrayList<>();
      for (String line : raw.body().split("\n")) {
        if (line.startsWith("data:")) {
          events.add(JSON.readTree(line.substring(5).strip()));
        }
      }
      return events;
    }
  }

  public Reply initialize() {
    Reply reply =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
    session = reply.header("Mcp-Session-Id");
    post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return reply;
  }

  /** Sends {@code Authorization: Bearer <token>} with every request from now on. */
  public McpHttpClient bearer(String token) {
    bearer = Optional.of(token);
    return this;
  }

  public Optional<String> session() {
    return session;
  }

  public void useSession(String id) {
    session = Optional.of(id);
  }

  /** Sends a request and returns the JSON-RPC response object. */
  public JsonNode request(String method, String paramsJson) {
    Reply reply = post(requestBody(method, paramsJson));
    if (reply.header("Content-Type").orElse("").startsWith("text/event-stream")) {
      List<JsonNode> events = reply.events();
      return events.getLast();
    }
    return reply.json();
  }

  public String requestBody(String method, String paramsJson) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + ids.incrementAndGet()
        + ",\"method\":\""
        + method
        + "\",\"params\":"
        + paramsJson
        + "}";
  }

  /** The result of a tools/call. */
  public JsonNode call(String tool, String argumentsJson) {
    return request("tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + argumentsJson + "}");
  }

  public Reply post(String body, String... headers) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    session.ifPresent(s -> builder.header("Mcp-Session-Id", s));
    bearer.ifPresent(t -> builder.header("Authorization", "Bearer " + t));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      builder.setHeader(headers[i], headers[i + 1]);
    }
    return send(builder.build());
  }

  public Reply send(HttpRequest request) {
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      return new Reply(response.statusCode(), response);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public URI uri() {
    return uri;
  }
}
