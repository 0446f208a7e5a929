package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.diagnostic.Diagnostics;
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
