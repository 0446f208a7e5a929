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

  /** A message: a role and exactly one content item. */
  public record Message(Role role, Content content) {}

  /** What a message carries. */
  public sealed interface Content {}

  /** Text; it may hold {@code {{ argument }}} placeholders. */
  public record Text(String text) implements Content {}

  /**
   * An image file, relative to the project directory, read when the prompt is rendered.
   *
   * @param mimeType the configured type, else the one of the file's extension
   */
  public record ImageFile(String path, String mimeType) implements Content {}

  /** An image file's content embedded by {@code svc build}; {@code path} keeps its name. */
  public record EmbeddedImage(String path, String mimeType, Bytes bytes) implements Content {}

  /**
   * A resource of the project, read as {@code resources/read} reads it when the prompt is rendered
   * and sent as an embedded resource.
   *
   * @param uri a resource URI, or one matching a resource template; it may hold {@code {{ argument
   *     }}} placeholders
   */
  public record ResourceRef(String uri) implements Content {}

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
