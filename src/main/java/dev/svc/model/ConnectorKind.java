package dev.svc.model;

import java.util.Locale;
import java.util.Optional;

/** The database kinds an adapter can connect to. */
public enum ConnectorKind {
  POSTGRES,
  MYSQL,
  SQLITE,
  MONGODB,
  REDIS;

  /** The name written in adapter files. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public boolean isSql() {
    return this == POSTGRES || this == MYSQL || this == SQLITE;
  }

  public static Optional<ConnectorKind> parse(String text) {
    for (ConnectorKind kind : values()) {
      if (kind.wireName().equals(text)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }
}
