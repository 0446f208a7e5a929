package dev.svc.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;

/**
 * One in-process run of the {@code svc} command: its exit code and what it wrote.
 *
 * @param exitCode what {@link Main#run} returned
 * @param out everything written to stdout
 * @param err everything written to stderr
 */
record CliRun(int exitCode, String out, String err) {

  /** Runs {@code svc args...} in {@code workingDirectory} with an empty process environment. */
  static CliRun svc(Path workingDirectory, String... args) {
    return svc(workingDirectory, Map.of(), args);
  }

  static CliRun svc(Path workingDirectory, Map<String, String> environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exitCode =
        Main.run(
            new CliContext(
                workingDirectory, environment, new PrintWriter(out), new PrintWriter(err)),
            args);
    return new CliRun(exitCode, out.toString(), err.toString());
  }
}
