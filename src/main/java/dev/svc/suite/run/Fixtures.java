package dev.svc.suite.run;

import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.model.Execution;
import dev.svc.model.Model;
import dev.svc.model.Statement;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.suite.ToolSuite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Runs a suite's fixture files on its tool's adapter, once, before the cases: each statement in
 * turn, through the suite's own connector (the pool the cases use, so a SQLite {@code :memory:}
 * database sees them too). Statements are committed one by one: nothing is rolled back
 * (docs/testing.md says which database to point tests at).
 */
final class Fixtures {
  private Fixtures() {}

  /** How long one fixture statement may run. */
  static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(60);

  /** A fixture could not be read or a statement of it failed: the suite cannot run. */
  static final class FixtureException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FixtureException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** A tool suite's fixtures, on its tool's adapter. */
  static void apply(ToolSuite suite, Model model, ProjectRuntime runtime, Path projectDirectory) {
    if (suite.fixtures().isEmpty()) {
      return;
    }
    String adapter =
        switch (model.tool(suite.tool()).orElseThrow().execution()) {
          case Execution.OnAdapter on -> on.adapter();
          case Execution.Handler handler ->
              throw new IllegalStateException("the compiler lets fixtures only on SQL tools");
        };
    apply(adapter, suite.fixtures(), runtime, projectDirectory);
  }

  /** Runs {@code files}, in order, on the adapter named {@code adapter}. */
  static void apply(
      String adapter, List<String> files, ProjectRuntime runtime, Path projectDirectory) {
    Connector connector = runtime.connectors().get(adapter);
    if (connector == null) {
      throw new FixtureException("no tool of this suite uses adapter `" + adapter + "`", null);
    }
    for (String fixture : files) {
      String sql;
      Path file = projectDirectory.resolve(fixture);
      try {
        // checked again here: the file may have changed since the project was compiled, and a
        // FIFO, a device or a file of gigabytes would hang the run or end it
        if (!Files.isRegularFile(file) || Files.size(file) > ToolSuite.MAX_FIXTURE_BYTES) {
          throw new FixtureException(
              "fixture "
                  + fixture
                  + " is not a regular file of at most "
                  + ToolSuite.MAX_FIXTURE_BYTES
                  + " bytes",
              null);
        }
        sql = Files.readString(file);
      } catch (IOException e) {
        throw new FixtureException("fixture " + fixture + " cannot be read: " + e.getMessage(), e);
      }
      for (SqlScript.Part statement : SqlScript.statements(sql)) {
        try {
          connector.execute(
              new Statement.Sql(statement.text(), statement.text(), List.of()),
              Map.of(),
              Deadline.after(STATEMENT_TIMEOUT));
        } catch (RuntimeException e) {
          throw new FixtureException(
              "fixture "
                  + fixture
                  + ":"
                  + statement.line()
                  + " failed on adapter `"
                  + adapter
                  + "`: "
                  + e.getMessage(),
              e);
        }
      }
    }
  }
}
