package dev.svc.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a command runs against: its working directory, process environment and output streams.
 * Passed in, so commands run in-process in tests exactly as from a shell.
 */
public record CliContext(
    Path workingDirectory, Map<String, String> environment, PrintWriter out, PrintWriter err) {

  public static CliContext system() {
    return new CliContext(
        Path.of("").toAbsolutePath(),
        System.getenv(),
        new PrintWriter(System.out, true),
        new PrintWriter(System.err, true));
  }
}
