package dev.svc.agent;

import java.util.function.Consumer;

/**
 * A model provider. Implementations are thin clients on {@code java.net.http}, picked by one switch
 * in {@link ModelClients}.
 *
 * <p>A call is interruptible: interrupting the calling thread aborts the HTTP exchange and the call
 * throws {@link ModelCallInterruptedException}.
 */
public interface ModelClient {

  /**
   * Asks the model for its next turn.
   *
   * @param text receives text chunks as they arrive when {@link ModelRequest#streaming()} is set
   *     (and the provider streams); not called otherwise
   * @return the complete turn (all text, every tool call)
   * @throws ModelException when the provider fails or answers something unusable
   */
  Turn.Model generate(ModelRequest request, Consumer<String> text);
}
