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

  /**
   * The context of this process. A launcher that changes directory before starting the JVM (the
   * built artifact's does, so its start-up cache stays valid wherever it is moved) passes the
   * user's directory as {@code -Dsvc.cwd}.
   */
  public static CliContext system() {
    String cwd = System.getProperty("svc.cwd");
    return new CliContext(
        (cwd != null ? Path.of(cwd) : Path.of("")).toAbsolutePath(),
        System.getenv(),
        new PrintWriter(System.out, true),
        new PrintWriter(System.err, true));
  }
}
