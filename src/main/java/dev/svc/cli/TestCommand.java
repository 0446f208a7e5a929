package dev.svc.cli;

import dev.svc.compile.Compilation;
import dev.svc.connector.Connectors;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.project.Project;
import dev.svc.suite.run.JunitReport;
import dev.svc.suite.run.SuiteResult;
import dev.svc.suite.run.TestRunner;
import dev.svc.suite.run.TextReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code svc test}: runs the tests written beside a project's tools (docs/testing.md). */
@Command(
    name = "test",
    mixinStandardHelpOptions = true,
    description = {
      "Run a project's tests: the cases of the tests.terse files beside its tools,",
      "prompts (<prompt>.tests.terse), resources and agents, run as an MCP client's",
      "calls would be (auth, validation, transforms; result cache off); agents get",
      "a scripted model (no network). Connects to the databases the tested tools use;",
      "SQLite files are fresh per suite. Logs errors only unless --log-level says more.",
      "Exit code 0 when every case passes, 1 when one fails or the project is invalid."
    })
final class TestCommand implements Callable<Integer> {
  @Mixin ProjectOptions project;
  @Mixin LogOptions log;

  @Option(
      names = "--filter",
      paramLabel = "TEXT",
      description =
          "Run only the cases whose `<subject>/<case name>` contains TEXT (case-insensitive);"
              + " the subject is a tool, prompt or agent name, or a resource URI.")
  String filter;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description =
          "`text` (default): the readable report on stdout. `junit`: JUnit XML on stdout (or in"
              + " --output), the readable report on stderr.")
  String format = "text";

  @Option(
      names = "--output",
      paramLabel = "FILE",
      description = "Write the report (text or JUnit XML) to FILE instead of stdout.")
  Path output;

  private final CliContext context;

  TestCommand(CliContext context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    if (!format.equals("text") && !format.equals("junit")) {
      context.err().println("error: --format must be `text` or `junit`, got `" + format + "`");
      context.err().flush();
      return ExitCodes.USAGE;
    }
    Optional<String> badLogFlag = log.problem();
    if (badLogFlag.isPresent()) {
      context.err().println("error: " + badLogFlag.get());
      context.err().flush();
      return ExitCodes.USAGE;
    }
    boolean junit = format.equals("junit");
    // errors only unless asked: the report is what a test run prints (a suite's fresh database
    // has no tables until its fixtures ran, which the start-up's statement check would warn of)
    // the log file's path on standard error: standard output may be the JUnit report
    log.apply(Optional.of(1), context)
        .ifPresent(file -> context.err().println("svc: logging to " + file));
    Project located = project.locate(context);
    Optional<Compilation.Success> compiled = ProjectCompiler.compiled(located, context);
    if (compiled.isEmpty()) {
      return ExitCodes.FAILED;
    }
    Model model = compiled.get().model();
    Environment environment =
        Environment.load(context.workingDirectory(), located.directory(), context.environment());
    TestRunner runner =
        new TestRunner(
            new TestRunner.Settings(
                environment,
                located.directory(),
                Connectors::open,
                () -> ScriptSandbox.runner(model, environment)));
    // the readable report goes where the reader is: stdout, unless it holds the XML or a file does
    PrintWriter progress = junit || output != null ? context.err() : context.out();
    List<SuiteResult> results =
        runner.run(
            model,
            compiled.get().suites(),
            selected(),
            suite -> {
              progress.print(TextReport.suite(suite));
              progress.flush();
            });
    if (results.isEmpty()) {
      progress.println(
          filter == null
              ? "no tests: add a tests.terse beside a tool's config.terse (docs/testing.md)"
              : "no test case matches --filter " + filter);
      progress.flush();
      return ExitCodes.FAILED;
    }
    String summary = TextReport.summary(results);
    progress.println(summary);
    progress.flush();
    if (junit || output != null) {
      String report =
          junit
              ? JunitReport.of(model.service().name(), results)
              : String.join("", results.stream().map(TextReport::suite).toList()) + summary + "\n";
      write(report);
    }
    return results.stream().allMatch(SuiteResult::passed) ? ExitCodes.OK : ExitCodes.FAILED;
  }

  private Predicate<String> selected() {
    if (filter == null || filter.isEmpty()) {
      return name -> true;
    }
    String needle = filter.toLowerCase(Locale.ROOT);
    return name -> name.toLowerCase(Locale.ROOT).contains(needle);
  }

  private void write(String report) {
    if (output == null) {
      context.out().print(report);
      context.out().flush();
      return;
    }
    Path file = context.workingDirectory().resolve(output);
    try {
      Files.writeString(file, report, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write the report to " + file + ": " + ArtifactLayout.reason(e), e);
    }
  }
}
