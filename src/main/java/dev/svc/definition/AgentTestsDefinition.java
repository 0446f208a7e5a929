package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import dev.svc.project.YamlNode;
import java.util.List;
import java.util.Optional;

/**
 * What the user wrote in an agent's {@code tests.terse} (docs/testing.md).
 *
 * @param file the test file, relative to the project
 * @param directory the agent folder, relative to the project
 * @param directoryName the agent folder's name
 * @param fixtures the {@code fixtures} mapping as written: adapter name → SQL files
 */
public record AgentTestsDefinition(
    Origin origin,
    String file,
    String directory,
    String directoryName,
    Optional<YamlNode> fixtures,
    List<CaseDefinition> cases) {
  public AgentTestsDefinition {
    cases = List.copyOf(cases);
  }

  /**
   * One case.
   *
   * @param model the scripted model's turns
   */
  public record CaseDefinition(
      Located<String> name,
      Optional<Located<String>> message,
      List<NamedValue> headers,
      List<TurnDefinition> model,
      Optional<ExpectDefinition> expect) {
    public CaseDefinition {
      headers = List.copyOf(headers);
      model = List.copyOf(model);
    }
  }

  /** One scripted model turn. */
  public record TurnDefinition(
      Origin origin, Optional<Located<String>> text, List<CallDefinition> toolCalls) {
    public TurnDefinition {
      toolCalls = List.copyOf(toolCalls);
    }
  }

  /** One scripted tool call. */
  public record CallDefinition(
      Origin origin, Optional<Located<String>> tool, Optional<YamlNode> arguments) {}

  /** A case's {@code expect} block. */
  public record ExpectDefinition(
      Origin origin,
      Optional<Located<String>> answer,
      Optional<Located<String>> answerMatches,
      Optional<YamlNode> toolCalls,
      Optional<YamlNode> jsonPath,
      Optional<Located<String>> error) {}
}
