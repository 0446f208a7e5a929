package dev.svc.call;

/**
 * Progress of a request, for clients that asked to be told (MCP {@code progressToken}). Fractions
 * only grow.
 */
@FunctionalInterface
public interface Progress {
  Progress NONE = (fraction, message) -> {};

  /**
   * @param fraction from 0 to 1
   */
  void report(double fraction, String message);
}
