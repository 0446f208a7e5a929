package dev.svc.suite;

import java.util.List;

/**
 * The tests of one tool: its {@code tests.terse}.
 *
 * @param file the test file, relative to the project
 * @param fixtures SQL files (relative to the project) run on the tool's adapter before the cases
 * @param inMemorySqlite whether the tool's adapter is replaced by a fresh in-memory SQLite database
 * @param freshSchema whether the suite runs in a throw-away PostgreSQL schema
 */
public record ToolSuite(
    String tool,
    String file,
    List<String> fixtures,
    boolean inMemorySqlite,
    boolean freshSchema,
    List<ToolCase> cases)
    implements Suite {
  /**
   * The largest fixture file: a fixture is read whole into memory, so a file of gigabytes would end
   * the run ({@code OutOfMemoryError}) instead of being reported.
   */
  public static final long MAX_FIXTURE_BYTES = 64L * 1024 * 1024;

  public ToolSuite {
    fixtures = List.copyOf(fixtures);
    cases = List.copyOf(cases);
  }

  @Override
  public String subject() {
    return tool;
  }

  @Override
  public String title() {
    return "tool " + tool;
  }
}
