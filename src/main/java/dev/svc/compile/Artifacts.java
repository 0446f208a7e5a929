package dev.svc.compile;

import dev.svc.model.Bytes;
import dev.svc.model.Model;
import dev.svc.model.Prompt;
import dev.svc.model.Resource;
import dev.svc.model.ResourceTemplate;
import dev.svc.model.ServedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Makes a compiled model self-contained for {@code svc build}: the content files of resources,
 * every file under the folder of a file template, and the images of prompt messages are embedded,
 * so the artifact serves without the project's sources.
 */
public final class Artifacts {
  private Artifacts() {}

  public static Model embedFiles(Model model, Path projectDirectory) {
    return embedFiles(model, projectDirectory, List.of());
  }

  /**
   * The model with its resource files read in; files under {@code leaveOut} (the build's output
   * folders, when they are inside the project) are not, so that a template whose folder holds them
   * does not carry the previous build (its jars, or a {@code .env} put beside it) into this one.
   */
  public static Model embedFiles(Model model, Path projectDirectory, List<Path> leaveOut) {
    List<Resource> resources =
        model.resources().stream()
            .map(r ->
                r.content() instanceof Resource.ContentFile file
                    ? new Resource(
                        r.uri(),
                        r.name(),
                        r.title(),
                        r.description(),
                        r.mimeType(),
                        new Resource.EmbeddedFile(
                            file.path(), Bytes.of(read(projectDirectory.resolve(file.path())))))
                    : r)
            .toList();
    List<ResourceTemplate> templates =
        model.resourceTemplates().stream()
            .map(t ->
                t.content() instanceof ResourceTemplate.FileTemplate file
                    ? new ResourceTemplate(
                        t.uriTemplate(),
                        t.name(),
                        t.title(),
                        t.description(),
                        t.mimeType(),
                        t.arguments(),
                        new ResourceTemplate.EmbeddedFiles(
                            file.pathTemplate(),
                            filesUnder(projectDirectory.resolve(file.directory()), leaveOut)))
                    : t)
            .toList();
    List<Prompt> prompts =
        model.prompts().stream()
            .map(p ->
                new Prompt(
                    p.name(),
                    p.title(),
                    p.description(),
                    p.arguments(),
                    p.messages().stream()
                        .map(m ->
                            m.content() instanceof Prompt.ImageFile image
                                ? new Prompt.Message(
                                    m.role(),
                                    new Prompt.EmbeddedImage(
                                        image.path(),
                                        image.mimeType(),
                                        Bytes.of(read(projectDirectory.resolve(image.path())))))
                                : m)
                        .toList()))
            .toList();
    return new Model(
        model.service(),
        model.adapters(),
        model.tools(),
        prompts,
        resources,
        templates,
        model.agents(),
        model.scripts());
  }

  /**
   * Every file under {@code directory} a template may serve ({@link ServedFiles}), by relative
   * path: not one whose link leads out of the folder, nor a dot file or a {@code config.terse}.
   */
  private static Map<String, Bytes> filesUnder(Path directory, List<Path> leaveOut) {
    Map<String, Bytes> files = new TreeMap<>();
    if (!Files.isDirectory(directory)) {
      return files;
    }
    try (Stream<Path> walk = Files.walk(directory, FileVisitOption.FOLLOW_LINKS)) {
      for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
        if (leaveOut.stream().anyMatch(out -> file.toAbsolutePath().normalize().startsWith(out))) {
          continue;
        }
        Path relative = directory.relativize(file);
        if (ServedFiles.servable(relative) && ServedFiles.insideForReal(file, directory)) {
          files.put(relative.toString().replace('\\', '/'), Bytes.of(read(file)));
        }
      }
    } catch (UncheckedIOException e) {
      if (e.getCause() instanceof FileSystemLoopException loop) {
        throw new UncheckedIOException(
            "the resource folder "
                + directory
                + " holds a loop of symbolic links at "
                + loop.getFile(),
            loop);
      }
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + directory, e);
    }
    return files;
  }

  /**
   * The most bytes of one file {@code svc build} embeds. The artifact loads {@code model.bin} whole
   * into the launcher's 512 MiB heap; a 3 GiB image ended the build with an {@code
   * OutOfMemoryError} and its stack trace.
   */
  static final long MAX_EMBEDDED_BYTES = 256L * 1024 * 1024;

  private static byte[] read(Path file) {
    try {
      long size = Files.size(file);
      if (size > MAX_EMBEDDED_BYTES) {
        throw new UncheckedIOException(
            "cannot embed "
                + file
                + ": it holds "
                + size / (1024 * 1024)
                + " MiB, more than the "
                + MAX_EMBEDDED_BYTES / (1024 * 1024)
                + " MiB svc build embeds of one file; make it smaller, or serve it from a tool",
            new IOException("file too large to embed: " + file));
      }
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
