package dev.svc.protocol;

import java.util.Map;
import java.util.function.Consumer;

/** What to answer an {@link HttpCall} with; the HTTP layer writes it. */
public sealed interface HttpReply {

  int status();

  Map<String, String> headers();

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
