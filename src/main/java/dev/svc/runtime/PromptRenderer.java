package dev.svc.runtime;

import dev.svc.SvcException;
import dev.svc.connector.ResultMemory;
import dev.svc.model.Argument;
import dev.svc.model.Prompt;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders a prompt's messages: {@code {{ name }}} placeholders (letters, digits, underscore) in
 * text and resource URIs are replaced by supplied arguments, an argument the caller did not send
 * takes its {@code default}, and a placeholder without either is left as written; images are read
 * (embedded, else from the project directory); resources are read through {@link ResourceContents},
 * as {@code resources/read} reads them.
 */
public final class PromptRenderer {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_]+)\\s*\\}\\}");

  private final ResourceContents resources;
  private final Path projectDirectory;
  private final long ceiling;

  public PromptRenderer(ResourceContents resources, Path projectDirectory) {
    this(resources, projectDirectory, ResultMemory.process().ceilingBytes());
  }

  /**
   * @param ceiling the most characters the texts of one rendering may hold
   */
  PromptRenderer(ResourceContents resources, Path projectDirectory, long ceiling) {
    this.resources = resources;
    this.projectDirectory = projectDirectory.toAbsolutePath().normalize();
    this.ceiling = ceiling;
  }

  /** A rendered message. */
  public record Rendered(Prompt.Role role, Content content) {}

  /** What a rendered message carries. */
  public sealed interface Content {}

  public record Text(String text) implements Content {}

  public record Image(String mimeType, byte[] bytes) implements Content {}

  /** A resource read at its (substituted) URI. */
  public record Resource(ResourceContents.Content content) implements Content {}

  /** A message's resource URI, after substitution, that no resource or template matches. */
  public static final class UnknownResourceException extends SvcException {
    private final String uri;

    UnknownResourceException(String uri) {
      super("no resource matches " + uri);
      this.uri = uri;
    }

    public String uri() {
      return uri;
    }
  }

  /**
   * The text a prompt's or a template's placeholders would make is larger than svc serves as one
   * result: a long argument put in many times. Refused before the text is made.
   */
  public static final class TooLargeException extends SvcException {
    TooLargeException(long ceiling) {
      super(
          "the arguments would make the text longer than the "
              + (ceiling + (1 << 20) - 1) / (1 << 20)
              + " MiB svc serves as one result: send shorter values");
    }
  }

  /** How many characters the texts of one rendering may still hold. */
  private static final class Room {
    private final long ceiling;
    private long left;

    Room(long ceiling) {
      this.ceiling = ceiling;
      this.left = ceiling;
    }

    void take(long characters) {
      left -= characters;
      if (left < 0) {
        throw new TooLargeException(ceiling);
      }
    }
  }

  /** Required arguments the caller did not supply, in declaration order. */
  public static List<String> missingRequired(Prompt prompt, Map<String, String> arguments) {
    return prompt.arguments().stream()
        .filter(Argument::required)
        .map(Argument::name)
        .filter(name -> !arguments.containsKey(name))
        .toList();
  }

  /** Why a prompt cannot be rendered without {@code missing}: the words of the refusal. */
  public static String missingMessage(Prompt prompt, List<String> missing) {
    return "prompt `"
        + prompt.name()
        + "` needs the argument(s) "
        + String.join(", ", missing.stream().map(m -> "`" + m + "`").toList());
  }

  /**
   * The messages of {@code prompt} with {@code arguments} filled in.
   *
   * @throws UnknownResourceException when a resource URI matches no resource or template
   * @throws ResourceContents.InvalidPathException when a file template's path would contain {@code
   *     ..}
   */
  public List<Rendered> render(Prompt prompt, Map<String, String> arguments) {
    Map<String, String> values = withDefaults(prompt, arguments);
    Room room = new Room(ceiling);
    List<Rendered> messages = new ArrayList<>();
    for (Prompt.Message message : prompt.messages()) {
      messages.add(new Rendered(message.role(), content(message.content(), values, room)));
    }
    return messages;
  }

  /**
   * {@code arguments} with the {@code default} of each declared argument the caller did not send. A
   * sent value, even an empty one, is kept: only an absent argument takes its default.
   */
  public static Map<String, String> withDefaults(Prompt prompt, Map<String, String> arguments) {
    Map<String, String> values = new HashMap<>(arguments);
    for (Argument argument : prompt.arguments()) {
      argument.defaultValue().ifPresent(d -> values.putIfAbsent(argument.name(), d));
    }
    return values;
  }

  private Content content(Prompt.Content content, Map<String, String> arguments, Room room) {
    return switch (content) {
      case Prompt.Text text -> new Text(substitute(text.text(), arguments, room));
      case Prompt.ImageFile image -> new Image(image.mimeType(), read(image.path()));
      case Prompt.EmbeddedImage image -> new Image(image.mimeType(), image.bytes().toArray());
      case Prompt.ResourceRef ref -> {
        String uri = substitute(ref.uri(), arguments, room);
        yield new Resource(
            resources.read(uri).orElseThrow(() -> new UnknownResourceException(uri)));
      }
    };
  }

  /**
   * The image file, refused before it is read when it is larger than svc serves as one result (as a
   * resource file is): a prompt with a 700 MiB image ended the server on its first {@code
   * prompts/get} with an {@code OutOfMemoryError}.
   */
  private byte[] read(String path) {
    Path file = projectDirectory.resolve(path);
    try {
      long size = Files.size(file);
      if (size > ceiling) {
        throw new ResourceContents.TooLargeException(
            "prompt image "
                + file.getFileName()
                + " holds "
                + ResourceContents.mib(size)
                + ", more than the "
                + ResourceContents.mib(ceiling)
                + " svc serves as one result; make the image smaller");
      }
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read prompt image " + path, e);
    }
  }

  /**
   * Replaces each {@code {{ name }}} that has a value; others stay as written.
   *
   * @throws TooLargeException when the text would be longer than svc serves as one result
   */
  public static String substitute(String text, Map<String, String> values) {
    return substitute(text, values, ResultMemory.process().ceilingBytes());
  }

  /** The same within {@code ceiling} characters. */
  static String substitute(String text, Map<String, String> values, long ceiling) {
    return substitute(text, values, new Room(ceiling));
  }

  private static String substitute(String text, Map<String, String> values, Room room) {
    room.take(text.length());
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      if (value != null) {
        room.take(value.length()); // before it is appended: a value put in many times
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value != null ? value : m.group()));
    }
    m.appendTail(out);
    return out.toString();
  }
}
