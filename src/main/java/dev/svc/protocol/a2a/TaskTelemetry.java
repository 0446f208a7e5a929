package dev.svc.protocol.a2a;

import dev.svc.audit.AuditRecord;
import dev.svc.audit.AuditTrail;
import dev.svc.auth.Principal;
import dev.svc.call.Caller;
import dev.svc.model.Agent;
import dev.svc.telemetry.Scope;
import dev.svc.telemetry.Span;
import dev.svc.telemetry.SpanKind;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.telemetry.Telemetry;
import dev.svc.telemetry.Tracer;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * What an agent task leaves to observe: its span (after the OpenTelemetry GenAI conventions), its
 * duration metric and its audit line, each with the state the task ended in.
 */
final class TaskTelemetry {
  private TaskTelemetry() {}

  /**
   * Runs a task's {@code work} in its span {@code invoke_agent <name>} (a child of the request that
   * started it), then records its duration and audit line from the state the task ended in.
   */
  @SuppressWarnings("try") // the scope makes the task's span the parent of its model and tool spans
  static void traced(
      Span parent,
      TaskRun run,
      Agent agent,
      Principal principal,
      AuditTrail audit,
      Caller caller,
      Runnable work) {
    long started = System.nanoTime();
    Tracer tracer = Telemetry.tracer();
    Span span =
        tracer.enabled()
            ? tracer.startChildOf(parent, SpanKind.INTERNAL, "invoke_agent " + agent.name())
            : Span.NOOP;
    if (span.isRecording()) {
      span.set("gen_ai.operation.name", "invoke_agent")
          .set("gen_ai.agent.name", agent.name())
          .set("gen_ai.conversation.id", run.task().contextId())
          .set("svc.task.id", run.id())
          .set("svc.request_id", caller.requestId());
    }
    try (Scope scope = span.activate()) {
      work.run();
    } finally {
      Task task = run.task();
      String state = task.status().state().name().toLowerCase(Locale.ROOT);
      Optional<String> error =
          task.status().state() == TaskState.COMPLETED
              ? Optional.empty()
              : task.status().message().map(MessageText::lenient);
      if (task.status().state() == TaskState.FAILED) {
        span.fail("task_failed", error.orElse("the task failed"));
      }
      span.set("svc.task.state", state).end();
      long nanos = System.nanoTime() - started;
      SvcMetrics.AGENT_TASK_DURATION.record(nanos / 1e9, agent.name(), state);
      if (audit.enabled()) {
        audit.record(
            new AuditRecord.AgentTask(
                Instant.now(),
                caller.requestId(),
                principal.label(),
                agent.name(),
                run.id(),
                task.contextId(),
                state,
                switch (task.status().state()) {
                  case COMPLETED -> "ok";
                  case CANCELED -> "canceled";
                  default -> "error";
                },
                error,
                nanos / 1e6));
      }
    }
  }
}
