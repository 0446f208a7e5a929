package dev.svc.agent;

import dev.svc.call.HeaderValues;
import dev.svc.json.Json;
import dev.svc.json.LoneSurrogates;
import dev.svc.log.SecretValues;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * POSTs JSON to a provider and reads the answer, as one JSON document or as server-sent events.
 * Interrupting the calling thread cancels the exchange ({@link ModelCallInterruptedException}).
 */
final class ProviderHttp {
  /** One client for every provider call: HTTP/1.1 and 2, connection reuse. */
  static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .followRedirects(HttpClient.Redirect.NORMAL)
          .build();

  private static final int MAX_ERROR_BYTES = 64 * 1024;

  /**
   * The most of one answer svc reads (docs/agents.md, "Limits"): a model's text is kilobytes, and a
   * provider that sends more than this fails the call instead of filling the heap.
   */
  static final long MAX_ANSWER_BYTES = 8L * 1024 * 1024;

  /**
   * How many {@code timeout}s a whole answer may take, from the request to its last byte
   * (docs/agents.md, "Limits"): a provider dripping bytes never stays quiet for a {@code timeout}.
   */
  static final int ANSWER_TIMEOUTS = 10;

  private final String provider;
  private final Duration timeout;

  /** An answer with status 2xx, its body read under an {@link AnswerDeadline}. */
  private record Answer(HttpResponse<InputStream> response, AnswerDeadline body) {}

  /**
   * @param provider the name used in error messages ({@code gemini}, {@code openai_compatible}, …)
   */
  ProviderHttp(String provider, Duration timeout) {
    this.provider = provider;
    this.timeout = timeout;
  }

  /** POSTs {@code body} and returns the JSON answer. */
  JsonNode post(String url, Map<String, String> headers, JsonNode body) {
    Answer answer = send(url, headers, body, "application/json");
    try (InputStream in = new AnswerLimit(answer.body(), MAX_ANSWER_BYTES)) {
      return LoneSurrogates.mended(Json.MAPPER.readTree(in));
    } catch (IOException | JacksonException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw new ModelCallInterruptedException();
      }
      if (answer.body().expired().isPresent()) {
        throw failure(answer.body().expired().get(), e);
      }
      if (tooLong(e)) {
        throw failure("answered with more than " + MAX_ANSWER_BYTES / (1024 * 1024) + " MiB", e);
      }
      throw failure("answered with a body that is not JSON", e);
    }
  }

  /**
   * POSTs {@code body} and hands the {@code data:} of every server-sent event to {@code events}.
   */
  void stream(String url, Map<String, String> headers, JsonNode body, Consumer<String> events) {
    Answer answer = send(url, headers, body, "text/event-stream");
    int received = 0;
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(
                new AnswerLimit(answer.body(), MAX_ANSWER_BYTES), StandardCharsets.UTF_8))) {
      StringBuilder data = new StringBuilder();
      String line;
      while ((line = reader.readLine()) != null) {
        if (Thread.currentThread().isInterrupted()) {
          throw new ModelCallInterruptedException();
        }
        if (line.isEmpty()) {
          if (!data.isEmpty()) {
            received++;
            events.accept(data.toString());
            data.setLength(0);
          }
        } else if (line.startsWith("data:")) {
          if (!data.isEmpty()) {
            data.append('\n');
          }
          data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
        }
        // comments (":"), "event:", "id:" and "retry:" lines carry nothing we need
      }
      if (!data.isEmpty()) {
        received++;
        events.accept(data.toString());
      }
    } catch (IOException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw new ModelCallInterruptedException();
      }
      if (answer.body().expired().isPresent()) {
        throw failure(answer.body().expired().get(), e);
      }
      if (tooLong(e)) {
        throw failure("streamed more than " + MAX_ANSWER_BYTES / (1024 * 1024) + " MiB", e);
      }
      throw failure("broke off the stream: " + e.getMessage(), e);
    }
    if (received == 0) {
      // an answer without a single event is no answer: a proxy's page, a server that is not the
      // provider's API, or one that ignored "stream": true
      throw new ModelException(
          provider
              + " answered without any server-sent event (Content-Type "
              + answer.response().headers().firstValue("Content-Type").orElse("none")
              + "), where its API streams events: check the model's endpoint");
    }
  }

  private static boolean tooLong(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AnswerLimit.Exceeded) {
        return true;
      }
    }
    return false;
  }

  private Answer send(String url, Map<String, String> headers, JsonNode body, String accept) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header("Accept", accept)
            .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(body)));
    for (Map.Entry<String, String> header : headers.entrySet()) {
      if (!HeaderValues.safe(header.getValue())) {
        // the HTTP client's own error quotes the value, and header values here are secrets
        throw new ModelException(
            provider
                + " cannot be called: its "
                + header.getKey()
                + " header (from the model's options) holds a character a header cannot carry"
                + " (a control character, or one outside ASCII such as a typographic quote)");
      }
      request.header(header.getKey(), header.getValue());
    }
    long sent = System.nanoTime();
    CompletableFuture<HttpResponse<InputStream>> future =
        CLIENT.sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    HttpResponse<InputStream> response;
    try {
      response = future.get();
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new ModelCallInterruptedException();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof HttpTimeoutException) {
        throw failure("did not answer within " + timeout.toSeconds() + " s", cause);
      }
      if (cause instanceof ConnectException) {
        throw failure("is unreachable at " + hostOf(url), cause);
      }
      throw failure("could not be called: " + cause, cause);
    }
    AnswerDeadline answer =
        new AnswerDeadline(response.body(), timeout, timeout.multipliedBy(ANSWER_TIMEOUTS), sent);
    if (response.statusCode() / 100 != 2) {
      throw new ModelException(
          provider + " returned HTTP " + response.statusCode() + errorText(answer, headers));
    }
    return new Answer(response, answer);
  }

  /**
   * The provider's own error message, when its body says one, without the values of {@code
   * headers}: they go before the message is cut to one line, so no part of a key is left.
   */
  private static String errorText(InputStream body, Map<String, String> headers) {
    try (InputStream in = body) {
      byte[] bytes = in.readNBytes(MAX_ERROR_BYTES);
      String text = new String(bytes, StandardCharsets.UTF_8).strip();
      try {
        JsonNode error = Json.MAPPER.readTree(text).path("error");
        String message = error.isString() ? error.asString() : error.path("message").asString(text);
        return ": " + oneLine(withoutSecrets(message, headers));
      } catch (JacksonException e) {
        return text.isEmpty() ? "" : ": " + oneLine(withoutSecrets(text, headers));
      }
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * What a provider said in the {@code error} of an answer it sent with HTTP 2xx (an object with a
   * {@code message}, or a string), as it may be shown: one line of at most 300 characters, without
   * the values of the headers svc sent. Empty when it said nothing.
   */
  static String errorMessage(JsonNode error, Map<String, String> headers) {
    String message = error.isString() ? error.asString() : error.path("message").asString("");
    return oneLine(withoutSecrets(message, headers));
  }

  /**
   * {@code text} (a provider's error, which svc logs and shows the task's client) without the
   * values of the headers svc sent: providers quote the key they refused ("Invalid API key
   * provided: Bearer sk-…").
   */
  static String withoutSecrets(String text, Map<String, String> headers) {
    return SecretValues.removedFrom(text, headers.values());
  }

  private static String oneLine(String text) {
    String line = text.replaceAll("\\s+", " ").strip();
    return line.length() > 300 ? line.substring(0, 300) + "…" : line;
  }

  private ModelException failure(String what, Throwable cause) {
    return new ModelException(provider + " " + what, cause);
  }

  /** Where {@code url} points, without a user and password it may carry. */
  private static String hostOf(String url) {
    URI uri = URI.create(url);
    return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
  }
}
