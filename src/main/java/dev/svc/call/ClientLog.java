package dev.svc.call;

import dev.svc.log.Level;

/**
 * Log messages meant for the client of a request (MCP {@code notifications/message}), e.g. a
 * script's console output. The protocol layer decides whether the client asked for them.
 */
@FunctionalInterface
public interface ClientLog {
  ClientLog NONE = (level, logger, message) -> {};

  void log(Level level, String logger, String message);
}
