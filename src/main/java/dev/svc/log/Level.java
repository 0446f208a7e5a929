package dev.svc.log;

import java.util.Locale;

/** Log levels, numbered as {@code server.log_level} and {@code --log-level} number them. */
public enum Level {
  ERROR(1),
  WARN(2),
  INFO(3),
  DEBUG(4);

  private final int number;

  Level(int number) {
    this.number = number;
  }

  public int number() {
    return number;
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The level numbered {@code n} (1 errors … 4 debug). */
  public static Level of(int n) {
    for (Level level : values()) {
      if (level.number == n) {
        return level;
      }
    }
    throw new IllegalArgumentException("log level must be 1 to 4, got " + n);
  }
}
