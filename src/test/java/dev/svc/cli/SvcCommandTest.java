package dev.svc.cli;

import static dev.svc.cli.CliRun.svc;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The top-level command: version, help, exit codes of bad command lines. */
class SvcCommandTest {
  @TempDir Path work;

  @Test
  void versionPrintsSvcAndTheBuildVersion() {
    CliRun run = svc(work, "--version");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEqualTo("svc " + dev.svc.SvcVersion.current() + "\n");
    assertThat(dev.svc.SvcVersion.current()).matches("\\d+\\.\\d+\\.\\d+(-[A-Za-z0-9.]+)?");
  }

  @Test
  void anUnknownFlagIsABadCommandLine() {
    CliRun run = svc(work, "validate", "--bogus");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith("Unknown option: '--bogus'");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void anUnknownCommandIsABadCommandLine() {
    CliRun run = svc(work, "frobnicate");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("frobnicate");
  }

  @Test
  void aMissingRequiredArgumentIsABadCommandLine() {
    CliRun run = svc(work, "completion");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("SHELL");
  }

  @Test
  void helpListsTheCommandsButNotCompletion() {
    CliRun run = svc(work, "help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("validate", "init", "help").doesNotContain("completion");
  }

  @Test
  void withoutACommandSvcPrintsTheSameHelp() {
    CliRun run = svc(work);

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEqualTo(svc(work, "help").out());
  }

  @Test
  void helpOfACommandShowsItsFlags() {
    CliRun run = svc(work, "help", "validate");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Usage: svc validate").contains("-s=YAML").contains("[PATH]");
  }
}
