package dev.svc.cli;

import dev.svc.connector.Connector;
import dev.svc.model.Tool;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.script.ScriptRunner;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * After a reload: the adapters and the script runner the new version no longer uses close once the
 * calls still running on the old version had time to end (its longest tool time-out, plus 1 s).
 */
final class Retirement {
  private Retirement() {}

  static void later(
      ProjectRuntime previous, List<Connector> retired, Optional<ScriptRunner> retiredScripts) {
    if (retired.isEmpty() && retiredScripts.isEmpty()) {
      return;
    }
    Duration drain =
        previous.model().tools().stream()
            .map(Tool::timeout)
            .max(Duration::compareTo)
            .orElse(Duration.ZERO)
            .plusSeconds(1);
    Thread.ofVirtual()
        .name("svc-retire-adapters")
        .start(() -> {
          try {
            Thread.sleep(drain);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          ProjectRuntime.close(retired);
          retiredScripts.ifPresent(ScriptRunner::close);
        });
  }
}
