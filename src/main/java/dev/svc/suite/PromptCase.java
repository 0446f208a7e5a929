package dev.svc.suite;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Map;

/**
 * One {@code prompts/get} of a prompt and what it must answer: its messages, as JSON ({@code
 * [{"role": "user", "text": "…"}, …]}), or an error.
 *
 * @param prompt the name of the prompt
 * @param arguments the prompt's arguments, as a client sends them
 */
public record PromptCase(
    String prompt,
    String name,
    Origin origin,
    Map<String, String> arguments,
    List<Expectation> expectations)
    implements TestCase {
  public PromptCase {
    arguments = Map.copyOf(arguments);
    expectations = List.copyOf(expectations);
  }
}
