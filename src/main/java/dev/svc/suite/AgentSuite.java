package dev.svc.suite;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tests of one agent: the {@code tests.terse} in its folder.
 *
 * @param fixtures SQL files (relative to the project) run before the cases, by adapter name
 */
public record AgentSuite(
    String agent, String file, Map<String, List<String>> fixtures, List<AgentCase> cases)
    implements Suite {
  public AgentSuite {
    fixtures = Collections.unmodifiableMap(new LinkedHashMap<>(fixtures));
    cases = List.copyOf(cases);
  }

  @Override
  public String subject() {
    return agent;
  }

  @Override
  public String title() {
    return "agent " + agent;
  }
}
