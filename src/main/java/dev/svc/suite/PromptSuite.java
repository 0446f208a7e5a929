package dev.svc.suite;

import java.util.List;

/** The tests of one prompt: its {@code <name>.tests.terse}. */
public record PromptSuite(String prompt, String file, List<PromptCase> cases) implements Suite {
  public PromptSuite {
    cases = List.copyOf(cases);
  }

  @Override
  public String subject() {
    return prompt;
  }

  @Override
  public String title() {
    return "prompt " + prompt;
  }
}
