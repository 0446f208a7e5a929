package dev.svc.suite.run;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How one suite went.
 *
 * @param name what the suite tests ({@code tool get_product})
 * @param file its test file, relative to the project
 * @param setupError why the suite could not run (its adapter unreachable, a fixture failing); then
 *     no case ran
 */
public record SuiteResult(
    String name, String file, List<CaseResult> cases, Optional<String> setupError, Duration time) {
  public SuiteResult {
    cases = List.copyOf(cases);
  }

  public long failed() {
    return cases.stream().filter(c -> !c.mismatches().isEmpty() && c.error().isEmpty()).count();
  }

  public long errored() {
    return cases.stream().filter(c -> c.error().isPresent()).count()
        + (setupError.isPresent() ? 1 : 0);
  }

  public boolean passed() {
    return setupError.isEmpty() && cases.stream().allMatch(CaseResult::passed);
  }
}
