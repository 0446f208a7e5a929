package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import dev.svc.project.YamlNode;
import java.util.List;
import java.util.Optional;

/**
 * What the user wrote in a tool's {@code tests.terse} (docs/testing.md).
 *
 * @param origin start of the file
 * @param file the file, relative to the project
 * @param directory the tool directory relative to the project, where fixture paths start
 * @param directoryName the last segment of {@code directory}: the tool the tests are beside
 * @param fixtures {@code fixtures}: SQL files run on the tool's adapter before the cases
 * @param inMemorySqlite {@code in_memory_sqlite}: run on an in-memory SQLite database instead
 * @param freshSchema {@code fresh_schema}: run in a throw-away PostgreSQL schema
 * @param cases the cases, in the order written
 */
public record ToolTestsDefinition(
    Origin origin,
    String file,
    String directory,
    String directoryName,
    List<Located<String>> fixtures,
    Optional<Located<Boolean>> inMemorySqlite,
    Optional<Located<Boolean>> freshSchema,
    List<CaseDefinition> cases) {

  public ToolTestsDefinition {
    fixtures = List.copyOf(fixtures);
    cases = List.copyOf(cases);
  }

  /**
   * One case.
   *
   * @param inputs the {@code inputs} mapping as written
   * @param headers the caller's headers
   * @param claims the {@code claims} mapping as written: the caller's verified token
   */
  public record CaseDefinition(
      Located<String> name,
      Optional<YamlNode> inputs,
      List<NamedValue> headers,
      Optional<YamlNode> claims,
      Optional<ExpectDefinition> expect) {
    public CaseDefinition {
      headers = List.copyOf(headers);
    }
  }

  /**
   * A case's {@code expect} block: the values as written, checked by the compiler.
   *
   * @param jsonPath the {@code json_path} mapping: path → expected value
   */
  public record ExpectDefinition(
      Origin origin,
      Optional<YamlNode> result,
      Optional<YamlNode> rowsContain,
      Optional<Located<Long>> rowCount,
      Optional<YamlNode> jsonPath,
      Optional<Located<String>> error,
      Optional<Located<Boolean>> truncated) {}
}
