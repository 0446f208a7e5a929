package dev.svc.testing;

import dev.svc.cli.Instance;
import dev.svc.connector.Connectors;
import dev.svc.json.Json;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.protocol.a2a.A2aServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A running svc instance with agents, for tests over real HTTP: writes a project (with {@code
 * {{MODEL}}} replaced by the scripted model server's URL), launches it on port 0 with the real
 * connectors, and speaks A2A JSON-RPC and SSE to it.
 */
public final class A2aFixture implements AutoCloseable {
  public static final HttpClient HTTP = HttpClient.newHttpClient();

  private final String url;
  private final AutoCloseable server;
  private final AtomicInteger ids = new AtomicInteger();

  private A2aFixture(String url, AutoCloseable server) {
    this.url = url;
    this.server = server;
  }

  /** A client for a server a test started itself (closing the fixture closes {@code server}). */
  public static A2aFixture at(String url, AutoCloseable server) {
    return new A2aFixture(url, server);
  }

  public static A2aFixture launch(
      Path directory,
      String files,
      String modelUrl,
      Map<String, String> environment,
      A2aServer.Settings settings) {
    Model model = ProjectFixture.model(directory, files.replace("{{MODEL}}", modelUrl));
    Instance instance =
        Instance.launch(
            model,
            new Instance.Options(
                Environment.of(environment),
                directory,
                "127.0.0.1",
                0,
                false,
                Connectors::open,
                settings));
    return new A2aFixture(instance.baseUrl(), instance);
  }

  public String url() {
    return url;
  }

  /** A JSON-RPC call; returns the whole response object. */
  public JsonNode rpc(String agent, String method, String params, String... headers) {
    HttpResponse<String> response = post("/agent/" + agent, request(method, params), headers);
    return Json.MAPPER.readTree(response.body());
  }

  /** The {@code result} of a call that must succeed. */
  public JsonNode result(String agent, String method, String params, String... headers) {
    JsonNode response = rpc(agent, method, params, headers);
    if (!response.has("result")) {
      throw new AssertionError(method + " failed: " + response);
    }
    return response.get("result");
  }

  public String request(String method, String params) {
    ObjectNode request = Json.NODES.objectNode();
    request.put("jsonrpc", "2.0");
    request.put("id", ids.incrementAndGet());
    request.put("method", method);
    request.set("params", Json.MAPPER.readTree(params));
    return Json.MAPPER.writeValueAsString(request);
  }

  public HttpResponse<String> post(String path, String body, String... headers) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(url() + path))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .header("A2A-Version", "1.0")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      builder.setHeader(headers[i], headers[i + 1]);
    }
    return send(builder.build());
  }

  public HttpResponse<String> get(String path, String... headers) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(30)).GET();
    for (int i = 0; i + 1 < headers.length; i += 2) {
      builder.setHeader(headers[i], headers[i + 1]);
    }
    return send(builder.build());
  }

  public static HttpResponse<String> send(HttpRequest request) {
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** What an SSE response carried: the data events (parsed) and every raw line. */
  public record Sse(int status, String contentType, List<JsonNode> events, List<String> lines) {
    public long comments() {
      return lines.stream().filter(l -> l.startsWith(":")).count();
    }
  }

  /** Sends a streaming method and reads the stream to its end. */
  public Sse stream(String agent, String method, String params) {
    return open(agent, method, params).rest();
  }

  /**
   * Sends a streaming method; the stream is read line by line as the test asks.
   *
   * @param headers extra headers, as name-value pairs
   */
  public LiveStream open(String agent, String method, String params, String... headers) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(url() + "/agent/" + agent))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .header("Accept", "text/event-stream")
            .header("A2A-Version", "1.0")
            .POST(HttpRequest.BodyPublishers.ofString(request(method, params)));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      builder.setHeader(headers[i], headers[i + 1]);
    }
    HttpRequest request = builder.build();
    try {
      HttpResponse<java.io.InputStream> response =
          HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
      return new LiveStream(
          response.statusCode(),
          response.headers().firstValue("content-type").orElse(""),
          new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** An open SSE response. */
  public static final class LiveStream {
    private final int status;
    private final String contentType;
    private final BufferedReader reader;
    private final List<JsonNode> events = new ArrayList<>();
    private final List<String> lines = new ArrayList<>();

    LiveStream(int status, String contentType, BufferedReader reader) {
      this.status = status;
      this.contentType = contentType;
      this.reader = reader;
    }

    /** Reads up to the next line that starts with {@code prefix} and returns it. */
    public String until(String prefix) {
      try {
        String line;
        while ((line = reader.readLine()) != null) {
          record(line);
          if (line.startsWith(prefix)) {
            return line;
          }
        }
        throw new AssertionError("the stream ended before a line starting with " + prefix);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The next data event. */
    public JsonNode next() {
      return Json.MAPPER.readTree(until("data:").substring(5).strip());
    }

    /** Reads the stream to its end; returns everything it carried. */
    public Sse rest() {
      try (reader) {
        String line;
        while ((line = reader.readLine()) != null) {
          record(line);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new Sse(status, contentType, List.copyOf(events), List.copyOf(lines));
    }

    private void record(String line) {
      lines.add(line);
      if (line.startsWith("data:")) {
        events.add(Json.MAPPER.readTree(line.substring(5).strip()));
      }
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
