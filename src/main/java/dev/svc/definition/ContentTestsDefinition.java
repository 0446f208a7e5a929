package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import dev.svc.project.YamlNode;
import java.util.List;
import java.util.Optional;

/**
 * What the user wrote in the tests of a prompt ({@code <name>.tests.terse} beside {@code
 * <name>.terse}) or of a resource or template ({@code tests.terse} beside its {@code config.terse})
 * (docs/testing.md).
 *
 * @param file the test file, relative to the project
 * @param directory its folder, relative to the project
 * @param stem for a prompt, the file name of the prompt it tests without {@code .terse}
 */
public record ContentTestsDefinition(
    Kind kind,
    Origin origin,
    String file,
    String directory,
    String stem,
    List<CaseDefinition> cases) {
  public ContentTestsDefinition {
    cases = List.copyOf(cases);
  }

  public enum Kind {
    PROMPT,
    RESOURCE
  }

  /**
   * One case.
   *
   * @param arguments a prompt's arguments, or a template's variables
   * @param uri a resource case's {@code uri}
   */
  public record CaseDefinition(
      Located<String> name,
      List<NamedValue> arguments,
      Optional<Located<String>> uri,
      Optional<ExpectDefinition> expect) {
    public CaseDefinition {
      arguments = List.copyOf(arguments);
    }
  }

  /** A case's {@code expect} block, with the fields of either kind. */
  public record ExpectDefinition(
      Origin origin,
      Optional<YamlNode> messages,
      Optional<YamlNode> jsonPath,
      Optional<Located<String>> error,
      Optional<Located<String>> uri,
      Optional<Located<String>> mimeType,
      Optional<Located<String>> text,
      Optional<Located<String>> textMatches) {}
}
