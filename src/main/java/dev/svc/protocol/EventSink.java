package dev.svc.protocol;

import tools.jackson.databind.JsonNode;

/**
 * One open server-sent-events stream to a client. Implemented by the HTTP layer; safe to call from
 * any thread.
 */
public interface EventSink {
  /** Sends one JSON-RPC message as an SSE {@code message} event; false when the stream is gone. */
  boolean send(JsonNode message);

  /**
   * Sends one JSON message as an unnamed SSE event: a bare {@code data:} frame, with no {@code
   * event:} or {@code id:} line (A2A v1 streams); false when the stream is gone.
   */
  boolean data(JsonNode message);

  /** Sends an SSE comment (keep-alive); false when the stream is gone. */
  boolean comment(String text);

  boolean isOpen();
}
