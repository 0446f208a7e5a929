package dev.svc.runtime;

import dev.svc.call.AnswerHold;
import dev.svc.connector.ResultMemory;
import dev.svc.connector.ResultRefusedException;
import dev.svc.model.Bytes;
import dev.svc.model.MimeTypes;
import dev.svc.model.Model;
import dev.svc.model.Resource;
import dev.svc.model.ResourceTemplate;
import dev.svc.model.ServedFiles;
import dev.svc.model.UriTemplate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads resources: an exact concrete URI first, then templates (the most specific first) matched
 * per RFC 6570. File content is text when it is UTF-8, else binary; MIME types come from the
 * configuration, else the file extension, else {@code text/plain; charset=utf-8} for text and
 * {@code application/octet-stream} for binary.
 */
public final class ResourceContents {
  private final Model model;
  private final Path projectDirectory;
  private final List<Compiled> templates;

  private record Compiled(ResourceTemplate template, UriTemplate uriTemplate) {}

  public ResourceContents(Model model, Path projectDirectory) {
    this.model = model;
    this.projectDirectory = projectDirectory.toAbsolutePath().normalize();
    this.templates =
        model.resourceTemplates().stream()
            .map(t -> new Compiled(t, UriTemplate.parse(t.uriTemplate())))
            // longest literal part first; a plain lambda, which the start-up cache holds (Model)
            .sorted((Compiled a, Compiled b) ->
                Integer.compare(b.uriTemplate().literalLength(), a.uriTemplate().literalLength()))
            .toList();
  }

  /** What a read gives. */
  public sealed interface Content {
    String uri();

    String mimeType();
  }

  public record Text(String uri, String mimeType, String text) implements Content {}

  public record Blob(String uri, String mimeType, byte[] bytes) implements Content {}

  /** A template path that leaves its directory after interpolation. */
  public static final class InvalidPathException extends dev.svc.SvcException {
    InvalidPathException(String message) {
      super(message);
    }
  }

  /**
   * A resource file larger than svc may hold for it ({@link ResultMemory}): past the ceiling of one
   * result, or past the room the result budget has left while other answers are made and written.
   * Refused before it is read, since the whole file would be held (and base64 text for a binary
   * one).
   */
  public static final class TooLargeException extends dev.svc.SvcException {
    TooLargeException(String message) {
      super(message);
    }
  }

  static String mib(long bytes) {
    return (bytes + (1 << 20) - 1) / (1 << 20) + " MiB";
  }

  /** Whether a resource or a template serves {@code uri}, without reading it. */
  public boolean serves(String uri) {
    for (Resource resource : model.resources()) {
      if (resource.uri().equals(uri)) {
        return true;
      }
    }
    for (Compiled compiled : templates) {
      try {
        if (compiled.uriTemplate().match(uri).isPresent()) {
          return true;
        }
      } catch (IllegalArgumentException e) {
        return false; // a malformed escape: no template serves it
      }
    }
    return false;
  }

  /**
   * The content at {@code uri}; empty when no resource or template matches.
   *
   * @throws InvalidPathException when a file template's interpolated path contains {@code ..} or a
   *     character no file name can hold, or a template's values hold a malformed percent-escape or
   *     a control character
   */
  public Optional<Content> read(String uri) {
    for (Resource resource : model.resources()) {
      if (resource.uri().equals(uri)) {
        return Optional.of(concrete(resource));
      }
    }
    for (Compiled compiled : templates) {
      Optional<Map<String, String>> values;
      try {
        values = compiled.uriTemplate().match(uri);
      } catch (IllegalArgumentException e) {
        throw new InvalidPathException(e.getMessage());
      }
      if (values.isPresent()) {
        return template(uri, compiled.template(), values.get());
      }
    }
    return Optional.empty();
  }

  private Content concrete(Resource resource) {
    return switch (resource.content()) {
      case Resource.InlineText inline ->
          new Text(resource.uri(), resource.mimeType().orElse(TEXT), inline.text());
      case Resource.ContentFile file ->
          file(resource.uri(), resource.mimeType(), projectDirectory.resolve(file.path()));
      case Resource.EmbeddedFile embedded -> {
        reserve(embedded.path(), embedded.bytes().size());
        yield content(
            resource.uri(), resource.mimeType(), embedded.path(), embedded.bytes().toArray());
      }
    };
  }

  private Optional<Content> template(
      String uri, ResourceTemplate template, Map<String, String> values) {
    return switch (template.content()) {
      case ResourceTemplate.InlineTemplate inline ->
          Optional.of(
              new Text(
                  uri,
                  template.mimeType().orElse(TEXT),
                  PromptRenderer.substitute(inline.text(), values)));
      case ResourceTemplate.FileTemplate file -> {
        String path = interpolatedPath(file.pathTemplate(), values);
        Path directory = projectDirectory.resolve(file.directory()).normalize();
        Path target = fileName(directory, path).normalize();
        if (!target.startsWith(directory)
            || !ServedFiles.servable(directory.relativize(target))
            || !Files.isRegularFile(target)
            || !ServedFiles.insideForReal(target, directory)) {
          yield Optional.empty();
        }
        yield Optional.of(file(uri, template.mimeType(), target));
      }
      case ResourceTemplate.EmbeddedFiles embedded -> {
        String path =
            fileName(Path.of(""), interpolatedPath(embedded.pathTemplate(), values))
                .normalize()
                .toString()
                .replace('\\', '/');
        Bytes bytes = embedded.files().get(path);
        if (bytes == null) {
          yield Optional.empty();
        }
        reserve(path, bytes.size());
        yield Optional.of(content(uri, template.mimeType(), path, bytes.toArray()));
      }
    };
  }

  private static final String TEXT = "text/plain; charset=utf-8";

  /** A file template's path with its placeholders filled in; {@code ..} is never allowed. */
  private static String interpolatedPath(String pathTemplate, Map<String, String> values) {
    String path = PromptRenderer.substitute(pathTemplate, values);
    if (Arrays.asList(path.split("[/\\\\]")).contains("..")) {
      throw new InvalidPathException("the resource path may not contain `..`");
    }
    return path;
  }

  /**
   * {@code path} under {@code directory}. A value taken from the URI may hold what no file name
   * can: a lone surrogate (a JSON escape such as U+D800 with no partner), or a character the file
   * system's encoding cannot write. That is the client's mistake, said as such ({@code -32602}),
   * not the file system's exception reaching the client as an internal error.
   */
  private static Path fileName(Path directory, String path) {
    try {
      return directory.resolve(path);
    } catch (java.nio.file.InvalidPathException e) {
      throw new InvalidPathException("the resource path holds a character no file name can hold");
    }
  }

  private static Content file(String uri, Optional<String> configured, Path path) {
    byte[] bytes;
    try {
      long size = Files.size(path);
      long ceiling = ResultMemory.process().ceilingBytes();
      if (size > ceiling) {
        throw new TooLargeException(
            "resource file "
                + path.getFileName()
                + " holds "
                + mib(size)
                + ", more than the "
                + mib(ceiling)
                + " svc serves as one result; split the file, or serve it as a tool that reads"
                + " a part of it");
      }
      reserve(path.getFileName().toString(), size);
      bytes = Files.readAllBytes(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read resource file " + path.getFileName(), e);
    }
    return content(uri, configured, path.getFileName().toString(), bytes);
  }

  /**
   * Takes the file's size from the result budget until the answer that carries it is written
   * ({@link AnswerHold}), as a tool's result is counted; at once given back when no answer is being
   * made on this thread. (Its text and the answer's JSON are copies made meanwhile, as for a tool.)
   */
  private static void reserve(String fileName, long size) {
    ResultMemory memory = ResultMemory.process();
    ResultMemory.Account account = memory.open();
    try {
      account.add(size);
    } catch (ResultRefusedException e) {
      account.close();
      throw new TooLargeException(
          "resource file "
              + fileName
              + " holds "
              + mib(size)
              + ", more than the room left in the "
              + mib(memory.budgetBytes())
              + " svc holds for results being answered (other answers hold it now); try again in"
              + " a moment");
    }
    if (!AnswerHold.defer(account)) {
      account.close();
    }
  }

  private static Content content(
      String uri, Optional<String> configured, String fileName, byte[] bytes) {
    Optional<String> byExtension = MimeTypes.ofFileName(fileName);
    Optional<String> text = utf8(bytes);
    if (text.isPresent() && !isBinaryType(configured.or(() -> byExtension))) {
      return new Text(uri, configured.or(() -> byExtension).orElse(TEXT), text.get());
    }
    return new Blob(
        uri, configured.or(() -> byExtension).orElse("application/octet-stream"), bytes);
  }

  private static boolean isBinaryType(Optional<String> mime) {
    return mime.map(m ->
            m.startsWith("image/") && !m.contains("svg")
                || m.startsWith("audio/")
                || m.startsWith("video/")
                || m.equals("application/pdf")
                || m.equals("application/octet-stream"))
        .orElse(false);
  }

  private static Optional<String> utf8(byte[] bytes) {
    try {
      String text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
      return text.indexOf('\0') >= 0 ? Optional.empty() : Optional.of(text);
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }

  /** The MIME type {@code resources/list} shows for a concrete resource, when one is known. */
  public static Optional<String> listedMimeType(Resource resource) {
    if (resource.mimeType().isPresent()) {
      return resource.mimeType();
    }
    return switch (resource.content()) {
      case Resource.InlineText ignored -> Optional.of(TEXT);
      case Resource.ContentFile file -> MimeTypes.ofFileName(file.path());
      case Resource.EmbeddedFile embedded -> MimeTypes.ofFileName(embedded.path());
    };
  }
}
