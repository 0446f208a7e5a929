package dev.svc.cli;

import dev.svc.project.Project;
import dev.svc.project.ProjectLocator;
import java.util.Optional;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The project arguments shared by commands: a path, and inline YAML with {@code -s}. */
final class ProjectOptions {
  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "PATH",
      description =
          "Project directory holding .svc, or a config file (default: the working directory).")
  String path;

  @Option(
      names = "-s",
      paramLabel = "YAML",
      description = "Root configuration given inline instead of the .svc file.")
  String inline;

  Project locate(CliContext context) {
    return ProjectLocator.locate(
        Optional.ofNullable(path), Optional.ofNullable(inline), context.workingDirectory());
  }
}
