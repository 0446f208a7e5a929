package dev.svc.suite;

import java.util.List;

/** The tests of one tool, prompt, resource or resource template: one test file. */
public sealed interface Suite permits ToolSuite, PromptSuite, ResourceSuite, AgentSuite {
  /** What the suite tests, for reports and {@code --filter}: a tool or prompt name, a URI. */
  String subject();

  /** What the suite tests, as a report names it: {@code tool get_product}. */
  String title();

  /** The test file, relative to the project. */
  String file();

  List<? extends TestCase> cases();
}
