package dev.svc.project;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the root configuration: {@code .svc} in the working directory, in a directory given on the
 * command line, a configuration file given by path, or YAML given inline with {@code -s}.
 */
public final class ProjectLocator {
  /** File name of the root configuration. */
  public static final String ROOT_FILE = ".svc";

  private ProjectLocator() {}

  /**
   * Locates the project.
   *
   * @param path the command-line path argument: a directory holding {@code .svc} or a file
   * @param inline YAML given with {@code -s}; it replaces the root file, and the project directory
   *     is then {@code path} (a directory) or the working directory
   * @param workingDirectory where relative paths start
   */
  public static Project locate(
      Optional<String> path, Optional<String> inline, Path workingDirectory) {
    Path target = path.map(workingDirectory::resolve).orElse(workingDirectory).normalize();
    if (inline.isPresent()) {
      if (!Files.isDirectory(target)) {
        throw new ProjectNotFoundException(
            "with -s the path must be the project directory, but "
                + target
                + " is not a directory");
      }
      return new Project(target, new Project.InlineRoot(inline.get()));
    }
    if (Files.isDirectory(target)) {
      Path root = target.resolve(ROOT_FILE);
      if (!Files.isRegularFile(root)) {
        throw new ProjectNotFoundException(
            "no "
                + ROOT_FILE
                + " file in "
                + target
                + " (run `svc init` to create a project, or pass the path of a project)");
      }
      return new Project(target, new Project.RootFile(root, ROOT_FILE));
    }
    if (Files.isRegularFile(target)) {
      Path directory = target.toAbsolutePath().getParent();
      return new Project(directory, new Project.RootFile(target, target.getFileName().toString()));
    }
    throw new ProjectNotFoundException("no such file or directory: " + target);
  }
}
