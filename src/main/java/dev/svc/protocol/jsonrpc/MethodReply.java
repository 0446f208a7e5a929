package dev.svc.protocol.jsonrpc;

import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/** What a method answers: one JSON result, or a stream of them. */
public sealed interface MethodReply {

  /** One result, sent as the request's response. */
  record Result(JsonNode result) implements MethodReply {}

  /**
   * Results sent one after another (A2A's {@code SendStreamingMessage} and {@code
   * SubscribeToTask}), each as a response carrying the request's id. The protocol opens the stream
   * and runs {@code writer} on the request's thread; the stream ends when it returns.
   */
  record Stream(Consumer<ResultStream> writer) implements MethodReply {}
}
