package dev.svc.suite.run;

import dev.svc.diagnostic.Origin;
import dev.svc.suite.Mismatch;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How one case went.
 *
 * @param origin where the case is written
 * @param answer what the call answered, for a report of a failure
 * @param mismatches the expectations that did not hold (a failure)
 * @param error why the case could not be checked at all: a server fault (an error)
 */
public record CaseResult(
    String name,
    Origin origin,
    Optional<String> answer,
    List<Mismatch> mismatches,
    Optional<String> error,
    Duration time) {
  public CaseResult {
    mismatches = List.copyOf(mismatches);
  }

  public boolean passed() {
    return mismatches.isEmpty() && error.isEmpty();
  }
}
