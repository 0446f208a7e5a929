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
import java.util.ArrayList;
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
 * {@code sandbox.js}. Bodies are text: UTF-8 unless the response names another charset. A body is
 * counted against the process's {@link FetchMemory} while it is read and until its call took it.
 */
final class HttpFetch {
  /** Larger response bodies fail the fetch rather than fill the isolate's heap. */
  static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

  /**
   * The longest JSON of one request ({@code {url, method, headers, body}}) the sandbox hands the
   * host, in characters; {@code sandbox.js} refuses longer ones before they leave the isolate. Also
   * the bound of a script's question to its client ({@code mcp.elicit}, …).
   */
  static final int MAX_REQUEST_CHARS = MAX_BODY_BYTES;

  /** Bytes read (and counted) at a time. */
  private static final int CHUNK_BYTES = 64 * 1024;

  private static final JsonMapper JSON = Jackson.MAPPER;

  private final FetchMemory memory;

  /** Fetches counted against the process's fetch budget. */
  HttpFetch() {
    this(FetchMemory.process());
  }

  HttpFetch(FetchMemory memory) {
    this.memory = memory;
  }

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
   * The request counts against the fetch budget until its answer is made, the answer until the call
   * took it.
   */
  CompletableFuture<FetchAnswer> start(String request, Duration timeout) {
    HttpRequest http;
    try {
      http = build(JSON.readTree(request), timeout);
    } catch (IllegalArgumentException | JacksonException e) {
      return CompletableFuture.completedFuture(FetchAnswer.of(error(e.getMessage())));
    }
    // the request is held until it is sent: its text, and the bytes of its body
    FetchMemory.Reservation held = memory.open();
    if (!held.add((long) request.length() * FetchMemory.HEAP_PER_BODY_BYTE)) {
      return CompletableFuture.completedFuture(failed(held, noRoom()));
    }
    CompletableFuture<FetchAnswer> answer =
        client()
            .sendAsync(http, HttpResponse.BodyHandlers.ofInputStream())
            .thenApply(response -> answer(response, held))
            .exceptionally(error -> FetchAnswer.of(failure(error)));
    // cancelled (its call ended): the body may still be read, and its answer is never taken
    answer.whenComplete((done, error) -> {
      if (error != null) {
        held.close();
      }
    });
    return answer;
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

  private FetchAnswer answer(HttpResponse<InputStream> response, FetchMemory.Reservation held) {
    try {
      return read(response, held);
    } catch (RuntimeException | Error e) {
      held.close();
      throw e;
    }
  }

  /** The answer, or an error when the body is too large or the fetch budget has no room for it. */
  private FetchAnswer read(HttpResponse<InputStream> response, FetchMemory.Reservation held) {
    List<byte[]> chunks = new ArrayList<>();
    int length = 0;
    try (InputStream in = response.body()) {
      while (true) {
        byte[] chunk = in.readNBytes(Math.min(CHUNK_BYTES, MAX_BODY_BYTES + 1 - length));
        if (chunk.length == 0) {
          break;
        }
        length += chunk.length;
        if (length > MAX_BODY_BYTES) {
          return failed(held, "the response is larger than " + (MAX_BODY_BYTES >> 20) + " MiB");
        }
        if (!held.add((long) chunk.length * FetchMemory.HEAP_PER_BODY_BYTE)) {
          return failed(held, noRoom());
        }
        chunks.add(chunk);
      }
    } catch (IOException e) {
      return failed(held, "reading the response failed: " + e.getMessage());
    }
    byte[] bytes = new byte[length];
    int at = 0;
    for (byte[] chunk : chunks) {
      System.arraycopy(chunk, 0, bytes, at, chunk.length);
      at += chunk.length;
    }
    chunks.clear();
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
    String json = JSON.writeValueAsString(answer);
    // the answer waits for its isolate as this JSON (two bytes a character at most); a body of
    // control characters or of text beyond Latin-1 makes JSON of more bytes than was counted
    if (!held.resize(2L * json.length())) {
      return failed(held, noRoom());
    }
    return new FetchAnswer(json, held::close);
  }

  private String noRoom() {
    return "the requests and responses of scripts' fetches hold all the memory svc keeps for them ("
        + (memory.budgetBytes() >> 20)
        + " MiB): fetch less at once";
  }

  /** An error answer: the body read so far is dropped, and with it its share of the budget. */
  private static FetchAnswer failed(FetchMemory.Reservation held, String message) {
    held.close();
    return FetchAnswer.of(error(message));
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
