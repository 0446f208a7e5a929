package dev.svc.cli;

import static dev.svc.cli.CliRun.svc;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

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
  void aLogLevelOutsideOneToFourIsABadCommandLineForStart() {
    // no project here: the flag is checked before the project is looked for
    CliRun run = svc(work, "start", "--log-level", "9");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err()).isEqualTo("error: --log-level must be 1 to 4, got 9\n");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void anUnknownLogFormatIsABadCommandLineForStart() {
    CliRun run = svc(work, "start", "--log-format", "xml");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err()).isEqualTo("error: --log-format must be text or json, got xml\n");
  }

  @Test
  void aBadFlagValueWinsOverAnInvalidProject() {
    dev.svc.testing.ProjectFixture.write(
        work,
        """
        == .svc
        name: Not A Name
        """);

    CliRun run = svc(work, "start", "--log-level=0");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err()).isEqualTo("error: --log-level must be 1 to 4, got 0\n");
  }

  @Test
  void aPortOutOfRangeIsABadCommandLineForStart() {
    CliRun run = svc(work, "start", "-p", "70000");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err()).isEqualTo("error: --port must be 0 to 65535, got 70000\n");
  }

  @Test
  void badLogFlagValuesAreABadCommandLineForServe() {
    // `serve` is parsed without picocli (ServeFastPath) ...
    CliRun level = svc(work, "serve", "--log-level", "9");
    CliRun format = svc(work, "serve", "--log-format=xml");

    assertThat(level.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(level.err()).isEqualTo("error: --log-level must be 1 to 4, got 9\n");
    assertThat(format.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(format.err()).isEqualTo("error: --log-format must be text or json, got xml\n");
  }

  @Test
  void badLogFlagValuesAreABadCommandLineForServeParsedByPicocli() {
    // ... unless it holds a form the fast path leaves to picocli, such as `-p0`
    CliRun level = svc(work, "serve", "-p0", "--log-level", "9");
    CliRun format = svc(work, "serve", "-p0", "--log-format", "xml");

    assertThat(level.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(level.err()).isEqualTo("error: --log-level must be 1 to 4, got 9\n");
    assertThat(format.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(format.err()).isEqualTo("error: --log-format must be text or json, got xml\n");
  }

  @Test
  void aTagFilterOfExcludesOnlyIsAValueNotAnOption() {
    for (String[] args :
        List.of(
            new String[] {"start", "--log-tags", "-http,-svc"},
            new String[] {"start", "--log-tags=-http,-svc"},
            new String[] {"serve", "--log-tags", "-http,-svc"},
            new String[] {"serve", "--log-tags=-http,-svc"})) {
      java.io.PrintWriter discard = new java.io.PrintWriter(java.io.Writer.nullWriter());
      CommandLine line = SvcCommand.commandLine(new CliContext(work, Map.of(), discard, discard));
      CommandLine.ParseResult parsed = line.parseArgs(args);
      Object command = parsed.subcommand().commandSpec().userObject();
      LogOptions log = command instanceof StartCommand s ? s.log : ((ServeCommand) command).log;
      assertThat(log.tags).as(String.join(" ", args)).isEqualTo("-http,-svc");
    }
  }

  @Test
  void serveParsesATagFilterOfExcludesOnlyWithoutPicocli() {
    java.io.StringWriter err = new java.io.StringWriter();
    CliContext context =
        new CliContext(
            work,
            Map.of(),
            new java.io.PrintWriter(java.io.Writer.nullWriter()),
            new java.io.PrintWriter(err));

    java.util.OptionalInt exit =
        ServeFastPath.tryRun(context, "serve", "--log-tags", "-http", "--log-level", "9");

    assertThat(exit).hasValue(ExitCodes.USAGE); // not left to picocli: the filter is a value
    assertThat(err.toString()).isEqualTo("error: --log-level must be 1 to 4, got 9\n");
  }

  @Test
  void validateTakesNoLogFlags() {
    CliRun run = svc(work, "validate", "--log-level", "9");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err()).startsWith("Unknown option: '--log-level'");
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
