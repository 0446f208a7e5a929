package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.diagnostic.Diagnostics;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Paths written in a project's files (a seed, a content file, an image, a script, a fixture),
 * resolved against the folder they start at. A path no file system can hold, such as one with a NUL
 * character (YAML writes it {@code "seed\0.sql"}), made {@link Path#resolve} throw an {@link
 * InvalidPathException} that ended the whole compilation with {@code error: Nul character not
 * allowed: …}: no file, line or column, and no other problem of the project reported.
 */
final class FilePaths {
  private FilePaths() {}

  /**
   * {@code written} resolved against {@code directory} and normalised, or empty after reporting
   * {@code invalid-path} at its position.
   */
  static Optional<Path> resolve(Path directory, Located<String> written, Diagnostics diagnostics) {
    try {
      return Optional.of(directory.resolve(written.value()).normalize());
    } catch (InvalidPathException e) {
      diagnostics.error(
          "invalid-path",
          written.origin(),
          "`" + visible(written.value()) + "` is not a file path: " + e.getReason().toLowerCase(),
          "remove the character; file names cannot hold it");
      return Optional.empty();
    }
  }

  /**
   * Whether {@code file}, an existing file that {@code written} names and that the project serves
   * to clients and embeds in its artifact (a resource's content, a prompt's image), may be: it must
   * be inside {@code projectDirectory} once symbolic links are followed ({@code
   * file-outside-project} otherwise: {@code ../../etc/passwd}, {@code /home/me/.ssh/id_rsa}, a link
   * out of the project), and it must not be a {@code .env} file, the project's secrets ({@code
   * secret-file}). Each is reported at {@code written}'s position.
   */
  static boolean servable(
      Path projectDirectory, Path file, Located<String> written, Diagnostics diagnostics) {
    Path project = projectDirectory.toAbsolutePath().normalize();
    // by the path as written: a link inside the project is the author's own, followed as linked
    // folders of definitions are (a shared folder of resources, say)
    if (!file.toAbsolutePath().normalize().startsWith(project)) {
      diagnostics.error(
          "file-outside-project",
          written.origin(),
          "`"
              + visible(written.value())
              + "` is outside the project directory: svc serves this file to clients and embeds it"
              + " in what `svc build` makes",
          "copy the file into the project and name it by a path inside it");
      return false;
    }
    if (namesEnvFile(file)) {
      diagnostics.error(
          "secret-file",
          written.origin(),
          "`"
              + visible(written.value())
              + "` is a .env file, which holds the project's secrets: svc would serve it to"
              + " clients and embed it in what `svc build` makes",
          "put the content in a file of its own; keep secrets in .env only");
      return false;
    }
    return true;
  }

  /** A {@code .env} file by its own name or, for a link, by the name of what it leads to. */
  static boolean namesEnvFile(Path file) {
    if (isEnvFile(file)) {
      return true;
    }
    try {
      return isEnvFile(file.toRealPath());
    } catch (IOException e) {
      return false;
    }
  }

  /** {@code .env} or {@code .env.<anything>} (.env.local, .env.production). */
  static boolean isEnvFile(Path file) {
    Path name = file.getFileName();
    return name != null && (name.toString().equals(".env") || name.toString().startsWith(".env."));
  }

  /** {@code text} with control characters written as {@code \\uXXXX}, so a message shows them. */
  private static String visible(String text) {
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints()
        .forEach(c -> {
          if (Character.isISOControl(c)) {
            out.append(String.format("\\u%04x", c));
          } else {
            out.appendCodePoint(c);
          }
        });
    return out.toString();
  }
}
