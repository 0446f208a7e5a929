package dev.svc.cli;

import static dev.svc.cli.CliRun.svc;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CompletionCommandTest {
  @TempDir Path work;

  @Test
  void theBashScriptIsValidBashAndRegistersACompletionForSvc() throws Exception {
    CliRun run = svc(work, "completion", "bash");
    assertThat(run.exitCode()).isZero();
    Path script = work.resolve("svc.bash");
    Files.writeString(script, run.out());

    Result syntax = bash("bash", "-n", script.toString());
    Result loaded = bash("bash", "-c", "source \"$0\" && complete -p svc", script.toString());

    assertThat(syntax.exitCode()).as(syntax.output()).isZero();
    assertThat(loaded.exitCode()).as(loaded.output()).isZero();
    assertThat(loaded.output()).contains("svc");
  }

  @Test
  void theBashCompletionOffersTheCommands() throws Exception {
    Path script = work.resolve("svc.bash");
    Files.writeString(script, svc(work, "completion", "bash").out());

    Result completed =
        bash(
            "bash",
            "-c",
            "source \"$0\"; COMP_WORDS=(svc va); COMP_CWORD=1; COMP_LINE='svc va'; COMP_POINT=6;"
                + " $(complete -p svc | sed -E 's/.*-F ([^ ]+).*/\\1/'); echo \"${COMPREPLY[@]}\"",
            script.toString());

    assertThat(completed.exitCode()).as(completed.output()).isZero();
    assertThat(completed.output().strip()).isEqualTo("validate");
  }

  @ParameterizedTest
  @ValueSource(strings = {"zsh", "fish", "powershell"})
  void otherShellsGetANonEmptyScriptNamingTheCommands(String shell) {
    CliRun run = svc(work, "completion", shell);

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("svc").contains("validate").contains("init");
  }

  @Test
  void anUnknownShellIsABadCommandLine() {
    CliRun run = svc(work, "completion", "tcsh");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("tcsh");
  }

  private record Result(int exitCode, String output) {}

  private Result bash(String... command) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(process.waitFor(), output);
  }
}
