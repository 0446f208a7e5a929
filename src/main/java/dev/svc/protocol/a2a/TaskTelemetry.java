package dev.svc.protocol.a2a;

import dev.svc.auth.Principal;
import dev.svc.call.Caller;
import dev.svc.model.Agent;
import dev.svc.runtime.CallObserver;
import dev.svc.telemetry.Span;
import java.util.Optional;

/**
 * An agent task under observation: what the {@link CallObserver} records of it (span, duration
 * metric, audit line) from the state the task ended in.
 */
final class TaskTelemetry {
  private TaskTelemetry() {}

  /**
   * Runs a task's {@code work} in its span {@code invoke_agent <name>} (a child of {@code parent},
   * the request that started it), then records it by the state the task ended in.
   */
  static void traced(
      CallObserver observer,
      Span parent,
      TaskRun run,
      Agent agent,
      Principal principal,
      Caller caller,
      Runnable work) {
    CallObserver.Observation observation =
        observer.start(
            new CallObserver.Subject.AgentTask(
                agent.name(), run.id(), run.task().contextId(), caller, parent));
    try {
      work.run();
    } finally {
      TaskStatus status = run.task().status();
      observation.end(
          switch (status.state()) {
            case COMPLETED -> CallObserver.Result.OK;
            case CANCELED -> CallObserver.Result.CANCELED;
            default -> CallObserver.Result.ERROR;
          },
          status.state() == TaskState.COMPLETED
              ? Optional.empty()
              : status.message().map(MessageText::lenient),
          principal.label());
    }
  }
}
