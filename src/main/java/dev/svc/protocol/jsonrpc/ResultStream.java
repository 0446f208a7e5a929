package dev.svc.protocol.jsonrpc;

import tools.jackson.databind.JsonNode;

/**
 * Where a streaming method writes its results ({@link MethodReply.Stream}); the protocol serving
 * the stream implements it. Safe to call from any thread.
 */
public interface ResultStream {

  /** Sends one result as a response with the request's id; false when the stream is gone. */
  boolean send(JsonNode result);

  /** Tells the client the stream is alive while nothing happens; false when the stream is gone. */
  boolean keepAlive();

  boolean isOpen();
}
