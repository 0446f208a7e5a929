package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each completion script loads in its own shell and completes a command (zsh and fish are installed
 * by {@code scripts/test-tools.sh}; a missing shell fails the test).
 */
class CompletionShellsIT {
  @TempDir Path dir;

  @Test
  void theZshScriptLoadsAndDefinesTheCompletionFunction() throws Exception {
    Path script = script("zsh");
    assertThat(run("zsh", "-c", "source " + script + " && whence -w _complete_svc"))
        .contains("_complete_svc: function");
  }

  @Test
  void theFishScriptLoadsAndCompletesCommands() throws Exception {
    Path script = script("fish");
    assertThat(run("fish", "-c", "source " + script + "; complete -C 'svc va'"))
        .contains("validate");
  }

  @Test
  void theBashScriptLoadsAndCompletesCommands() throws Exception {
    Path script = script("bash");
    String out =
        run(
            "bash",
            "-c",
            "source "
                + script
                + " && COMP_WORDS=(svc va) COMP_CWORD=1 && _complete_svc && echo ${COMPREPLY[@]}");
    assertThat(out).contains("validate");
  }

  private Path script(String shell) throws Exception {
    StringWriter out = new StringWriter();
    int exit =
        Main.run(
            new CliContext(
                dir, Map.of(), new PrintWriter(out, true), new PrintWriter(new StringWriter())),
            "completion",
            shell);
    assertThat(exit).isZero();
    Path file = dir.resolve("completion." + shell);
    Files.writeString(file, out.toString());
    return file;
  }

  private static String run(String... command) throws Exception {
    Process process;
    try {
      process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      throw new AssertionError(
          command[0] + " is not installed (scripts/test-tools.sh installs it)", e);
    }
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }
}
