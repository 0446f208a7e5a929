package dev.svc.project;

import dev.svc.diagnostic.Origin;
import java.nio.file.Path;

/**
 * A located project: its directory (base of discovery and of every path in diagnostics) and where
 * its root configuration comes from.
 */
public record Project(Path directory, RootSource root) {

  public Project {
    directory = directory.toAbsolutePath().normalize();
  }

  /** Where the root configuration ({@code .svc}) is read from. */
  public sealed interface RootSource {
    /** The file label used in diagnostics. */
    String label();
  }

  /** A root configuration file on disk. */
  public record RootFile(Path path, String label) implements RootSource {}

  /** A root configuration given on the command line with {@code -s}. */
  public record InlineRoot(String yaml) implements RootSource {
    @Override
    public String label() {
      return Origin.INLINE;
    }
  }

  /** The path of {@code file} relative to the project directory, with forward slashes. */
  public String relative(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    String text =
        absolute.startsWith(directory)
            ? directory.relativize(absolute).toString()
            : absolute.toString();
    return text.replace('\\', '/');
  }
}
