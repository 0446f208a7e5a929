package dev.svc.protocol.a2a;

import java.util.Locale;
import java.util.Optional;

/** A2A v1 {@code Role}; on the wire as {@code ROLE_USER} / {@code ROLE_AGENT}. */
public enum Role {
  UNSPECIFIED,
  USER,
  AGENT;

  public String wireName() {
    return "ROLE_" + name();
  }

  /** Reads {@code ROLE_USER}; the v0.3 spelling {@code user} is accepted too. */
  public static Optional<Role> parse(String text) {
    String name = text.strip().toUpperCase(Locale.ROOT);
    if (name.startsWith("ROLE_")) {
      name = name.substring("ROLE_".length());
    }
    for (Role role : values()) {
      if (role.name().equals(name)) {
        return Optional.of(role);
      }
    }
    return Optional.empty();
  }
}
