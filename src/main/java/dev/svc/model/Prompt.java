package dev.svc.model;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A compiled prompt: messages in the order written. */
public record Prompt(
    String name,
    Optional<String> title,
    Optional<String> description,
    List<Argument> arguments,
    List<Message> messages) {
  public Prompt {
    arguments = List.copyOf(arguments);
    messages = List.copyOf(messages);
  }

  /** A message; its text may hold {@code {{ argument }}} placeholders. */
  public record Message(Role role, String text) {}

  /** Message roles. */
  public enum Role {
    USER,
    ASSISTANT,
    SYSTEM;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Role> parse(String text) {
      for (Role role : values()) {
        if (role.wireName().equals(text)) {
          return Optional.of(role);
        }
      }
      return Optional.empty();
    }
  }
}
