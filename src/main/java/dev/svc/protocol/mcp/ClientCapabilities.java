package dev.svc.protocol.mcp;

import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * The client capabilities that let the server ask the client something during a call ({@code
 * elicitation}, {@code sampling}, {@code roots}), as declared in {@code initialize} (2025-11-25) or
 * in a request's {@code _meta} (2026-07-28). Kept in a session id as letters, so every instance
 * knows them.
 */
public record ClientCapabilities(Set<String> declared) {
  /** The capabilities svc may use, each with the letter that stands for it in a session id. */
  public static final Set<String> ASKABLE = Set.of("elicitation", "sampling", "roots");

  public static final ClientCapabilities NONE = new ClientCapabilities(Set.of());

  public ClientCapabilities {
    declared = Set.copyOf(new TreeSet<>(declared));
  }

  /** Those of {@code capabilities} (a {@code ClientCapabilities} object) that svc may use. */
  public static ClientCapabilities of(JsonNode capabilities) {
    if (capabilities == null || capabilities.isEmpty()) {
      return NONE; // the common case of a 2026-07-28 request: nothing to build
    }
    Set<String> found = new TreeSet<>();
    if (capabilities.isObject()) {
      for (String name : ASKABLE) {
        JsonNode value = capabilities.get(name);
        if (value != null && value.isObject()) {
          found.add(name);
        }
      }
    }
    return new ClientCapabilities(found);
  }

  public boolean declares(String capability) {
    return declared.contains(capability);
  }

  /** {@code e}, {@code s}, {@code r} for each declared, or {@code -} for none. */
  String flags() {
    StringBuilder flags = new StringBuilder();
    if (declared.contains("elicitation")) {
      flags.append('e');
    }
    if (declared.contains("sampling")) {
      flags.append('s');
    }
    if (declared.contains("roots")) {
      flags.append('r');
    }
    return flags.isEmpty() ? "-" : flags.toString();
  }

  /** The capabilities {@link #flags} wrote; unknown letters are ignored. */
  static ClientCapabilities ofFlags(String flags) {
    Set<String> found = new TreeSet<>();
    for (char c : flags.toCharArray()) {
      switch (c) {
        case 'e' -> found.add("elicitation");
        case 's' -> found.add("sampling");
        case 'r' -> found.add("roots");
        default -> {}
      }
    }
    return new ClientCapabilities(found);
  }
}
