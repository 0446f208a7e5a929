package dev.svc.protocol.mcp;

import dev.svc.log.Level;
import java.util.Optional;

/** MCP's syslog-style log levels mapped onto svc's four. */
final class LogLevels {
  private LogLevels() {}

  static Optional<Level> parse(String mcpLevel) {
    return switch (mcpLevel) {
      case "debug" -> Optional.of(Level.DEBUG);
      case "info", "notice" -> Optional.of(Level.INFO);
      case "warning" -> Optional.of(Level.WARN);
      case "error", "critical", "alert", "emergency" -> Optional.of(Level.ERROR);
      default -> Optional.empty();
    };
  }

  static String mcpName(Level level) {
    return switch (level) {
      case DEBUG -> "debug";
      case INFO -> "info";
      case WARN -> "warning";
      case ERROR -> "error";
    };
  }
}
