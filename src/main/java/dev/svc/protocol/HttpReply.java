package dev.svc.protocol;

import dev.svc.json.Jackson;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;

/** What to answer an {@link HttpCall} with; the HTTP layer writes it. */
public sealed interface HttpReply {

  int status();

  Map<String, String> headers();

  /**
   * A plain error answer, {@code {"error": "…"}}: what svc says to a request that is not JSON-RPC
   * (an unknown path or agent, a wrong method, a refused {@code Host}, a body too large).
   */
  static Body error(int status, Map<String, String> headers, String message) {
    return new Body(status, headers, "application/json", errorJson(message));
  }

  /** The body of a plain error answer: the one place its shape is written. */
  static byte[] errorJson(String message) {
    return ("{\"error\":" + Jackson.MAPPER.writeValueAsString(message) + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** A complete body. */
  record Body(int status, Map<String, String> headers, String contentType, byte[] body)
      implements HttpReply {}

  /** No body (e.g. 202 Accepted). */
  record Empty(int status, Map<String, String> headers) implements HttpReply {}

  /**
   * A {@code text/event-stream} response: the HTTP layer opens the stream and runs {@code writer}
   * on the request's thread; the stream ends when it returns.
   */
  record Stream(int status, Map<String, String> headers, Consumer<EventSink> writer)
      implements HttpReply {}
}
