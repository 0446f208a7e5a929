package dev.svc.testing;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A raw MCP 2026-07-28 client for tests: every request carries the revision and the client's
 * capabilities in {@code params._meta} and the headers that mirror the body ({@code
 * MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name}); no session, no handshake.
 */
public final class StatelessMcpClient {
  public static final String VERSION = "2026-07-28";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final McpHttpClient http;
  private final HttpClient streams = HttpClient.newHttpClient();
  private final AtomicInteger ids = new AtomicInteger(100);

  public StatelessMcpClient(String baseUrl) {
    this.http = new McpHttpClient(baseUrl);
  }

  /** Sends {@code Authorization: Bearer <token>} with every request from now on. */
  public StatelessMcpClient bearer(String token) {
    http.bearer(token);
    return this;
  }

  /** The {@code _meta} of a plain request: this revision, no capabilities, a client name. */
  public static ObjectNode meta() {
    ObjectNode meta = JSON.createObjectNode();
    meta.put("io.modelcontextprotocol/protocolVersion", VERSION);
    meta.putObject("io.modelcontextprotocol/clientCapabilities");
    meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "test").put("version", "1");
    return meta;
  }

  /** {@code params} with {@link #meta()} added, unless they carry a {@code _meta} of their own. */
  public static ObjectNode params(String paramsJson) {
    ObjectNode params = (ObjectNode) JSON.readTree(paramsJson);
    if (!params.has("_meta")) {
      params.set("_meta", meta());
    }
    return params;
  }

  /** The body of a request with the next id. */
  public String body(String method, ObjectNode params) {
    ObjectNode body = JSON.createObjectNode();
    body.put("jsonrpc", "2.0");
    body.put("id", ids.incrementAndGet());
    body.put("method", method);
    body.set("params", params);
    return JSON.writeValueAsString(body);
  }

  /** Sends a request with every standard header right; {@code headers} add or replace some. */
  public McpHttpClient.Reply post(String method, String paramsJson, String... headers) {
    ObjectNode params = params(paramsJson);
    return http.post(body(method, params), standardHeaders(method, params, headers));
  }

  /** Sends {@code body} as is, with only {@code headers}. */
  public McpHttpClient.Reply postRaw(String body, String... headers) {
    return http.post(body, headers);
  }

  /** The standard headers of a request, then {@code extra} (which may override them). */
  public static String[] standardHeaders(String method, ObjectNode params, String... extra) {
    java.util.List<String> headers = new java.util.ArrayList<>();
    headers.add("MCP-Protocol-Version");
    headers.add(params.path("_meta").path("io.modelcontextprotocol/protocolVersion").asString(""));
    headers.add("Mcp-Method");
    headers.add(method);
    String name =
        switch (method) {
          case "tools/call", "prompts/get" -> params.path("name").asString(null);
          case "resources/read" -> params.path("uri").asString(null);
          default -> null;
        };
    if (name != null) {
      headers.add("Mcp-Name");
      headers.add(name);
    }
    headers.addAll(java.util.List.of(extra));
    return headers.toArray(String[]::new);
  }

  /**
   * Opens {@code subscriptions/listen} with this filter and returns the stream's lines as they
   * arrive (SSE frames; {@code closed: …} when it ends).
   */
  public BlockingQueue<String> listen(String notificationsJson) {
    ObjectNode params = params("{\"notifications\":" + notificationsJson + "}");
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(http.uri().toString()))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body("subscriptions/listen", params)));
    String[] headers = standardHeaders("subscriptions/listen", params);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread.ofVirtual()
        .start(() -> {
          try {
            HttpResponse<java.io.InputStream> response =
                streams.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            lines.add("status: " + response.statusCode());
            try (BufferedReader reader =
                new BufferedReader(
                    new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
              String line;
              while ((line = reader.readLine()) != null) {
                lines.add(line);
              }
            }
            lines.add("closed: end of stream");
          } catch (Exception e) {
            lines.add("closed: " + e);
          }
        });
    return lines;
  }
}
