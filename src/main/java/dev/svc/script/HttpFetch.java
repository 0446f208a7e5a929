package dev.svc.script;

import dev.svc.json.Jackson;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The host side of the sandbox's {@code fetch}: one shared JDK HTTP client, requests started
 * asynchronously (so a script's concurrent fetches really run at once), answers as JSON text for
 * {@code sandbox.js}. Bodies are text: UTF-8 unless the response names another charset.
 */
final class HttpFetch {
  /** Larger response bodies fail the fetch rather than fill the isolate's heap. */
  static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

  private static final JsonMapper JSON = Jackson.MAPPER;

  // made on the first fetch: an HTTP client loads TLS and certificates, ~200 ms of start-up
  private volatile HttpClient client;

  private HttpClient client() {
    HttpClient current = client;
    if (current == null) {
      synchronized (this) {
        current = client;
        if (current == null) {
          current =
              HttpClient.newBuilder()
                  .followRedirects(HttpClient.Redirect.NORMAL)
                  .connectTimeout(Duration.ofSeconds(10))
                  .executor(Executors.newVirtualThreadPerTaskExecutor())
                  .build();
          client = current;
        }
      }
    }
    return current;
  }

  /**
   * Starts {@code request} ({@code {url, method, headers, body}}); never completes exceptionally.
   */
  CompletableFuture<String> start(String request, Duration timeout) {
    HttpRequest http;
    try {
      http = build(JSON.readTree(request), timeout);
    } catch (IllegalArgumentException | JacksonException e) {
      return CompletableFuture.completedFuture(error(e.getMessage()));
    }
    return client()
        .sendAsync(http, HttpResponse.BodyHandlers.ofInputStream())
        .thenApply(HttpFetch::answer)
        .exceptionally(HttpFetch::failure);
  }

  private static HttpRequest build(JsonNode request, Duration timeout) {
    String url = request.path("url").asString("");
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid URL " + url);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException("only http and https URLs can be fetched, not " + url);
    }
    String method = request.path("method").asString("GET").toUpperCase(Locale.ROOT);
    JsonNode body = request.path("body");
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(uri)
            .timeout(timeout.isNegative() || timeout.isZero() ? Duration.ofMillis(1) : timeout)
            .method(
                method,
                body.isString()
                    ? HttpRequest.BodyPublishers.ofString(body.asString(), StandardCharsets.UTF_8)
                    : HttpRequest.BodyPublishers.noBody());
    for (JsonNode header : request.path("headers")) {
      builder.header(header.path(0).asString(), header.path(1).asString());
    }
    return builder.build();
  }

  private static String answer(HttpResponse<InputStream> response) {
    byte[] bytes;
    try (InputStream in = response.body()) {
      bytes = in.readNBytes(MAX_BODY_BYTES + 1);
    } catch (IOException e) {
      return error("reading the response failed: " + e.getMessage());
    }
    if (bytes.length > MAX_BODY_BYTES) {
      return error("the response is larger than " + (MAX_BODY_BYTES >> 20) + " MiB");
    }
    ObjectNode answer = JSON.createObjectNode();
    answer.put("status", response.statusCode());
    answer.put("statusText", "");
    answer.put("url", response.uri().toString());
    ArrayNode headers = answer.putArray("headers");
    for (Map.Entry<String, List<String>> header : response.headers().map().entrySet()) {
      if (!header.getKey().startsWith(":")) {
        headers.addArray().add(header.getKey()).add(String.join(", ", header.getValue()));
      }
    }
    answer.put("body", new String(bytes, charset(response)));
    return JSON.writeValueAsString(answer);
  }

  private static Charset charset(HttpResponse<?> response) {
    String type = response.headers().firstValue("content-type").orElse("");
    for (String part : type.split(";")) {
      String p = part.strip();
      if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
        try {
          return Charset.forName(p.substring(8).replace("\"", "").strip());
        } catch (IllegalArgumentException e) {
          return StandardCharsets.UTF_8;
        }
      }
    }
    return StandardCharsets.UTF_8;
  }

  private static String failure(Throwable error) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException) {
      return error("the request timed out");
    }
    if (cause instanceof ConnectException) {
      return error(
          "cannot connect" + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
    }
    String message = cause.getMessage();
    return error(message == null ? cause.getClass().getSimpleName() : message);
  }

  private static String error(String message) {
    ObjectNode answer = JSON.createObjectNode();
    answer.put("error", message == null ? "unknown error" : message);
    return JSON.writeValueAsString(answer);
  }
}
