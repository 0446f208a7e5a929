package dev.svc.runtime;

import dev.svc.audit.AuditRecord;
import dev.svc.audit.AuditTrail;
import dev.svc.call.Caller;
import dev.svc.log.Log;
import dev.svc.model.Execution;
import dev.svc.model.Tool;
import dev.svc.telemetry.Scope;
import dev.svc.telemetry.Span;
import dev.svc.telemetry.SpanKind;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.telemetry.Telemetry;
import dev.svc.telemetry.Tracer;
import java.time.Instant;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Records, in one place, what a call leaves to observe: a tool call (from MCP or an agent) or an
 * agent task. Its span (after the OpenTelemetry GenAI conventions) is current on the calling thread
 * while it runs; when it ends, its duration metric and its audit line are recorded from how it
 * ended, a {@link Result}. The tool pipeline and the agent tasks only say what happened.
 */
public final class CallObserver {
  private static final Log LOG = Log.tagged("tool");

  /** How an observed call ended. */
  public enum Result {
    /** It answered. */
    OK("ok"),
    /** It failed for a reason the caller can fix; for a task, the task failed. */
    ERROR("error"),
    /** The server failed it (a tool call only). */
    FAULT("fault"),
    /** It was canceled (an agent task only). */
    CANCELED("canceled");

    private final String auditName;

    Result(String auditName) {
      this.auditName = auditName;
    }

    /** Its word in audit lines: {@code ok}, {@code error}, {@code fault}, {@code canceled}. */
    public String auditName() {
      return auditName;
    }
  }

  /** What is observed. */
  public sealed interface Subject {
    Caller caller();

    /**
     * A tool call.
     *
     * @param tool empty for the built-in {@code search}
     * @param arguments as the caller sent them (the audit line redacts them)
     */
    record ToolCall(String name, Optional<Tool> tool, JsonNode arguments, Caller caller)
        implements Subject {}

    /**
     * An agent task.
     *
     * @param parent the span of the request that started the task (it runs on another thread)
     */
    record AgentTask(String agent, String taskId, String contextId, Caller caller, Span parent)
        implements Subject {}
  }

  private final AuditTrail audit;

  /**
   * @param audit where calls are audited ({@link AuditTrail#OFF} for none)
   */
  public CallObserver(AuditTrail audit) {
    this.audit = audit;
  }

  /**
   * Starts observing a call: its span starts, current on this thread until the observation is
   * closed. Close it on this thread (try-with-resources), after {@link Observation#end}.
   */
  public Observation start(Subject subject) {
    return new Observation(
        subject,
        switch (subject) {
          case Subject.ToolCall call -> toolSpan(call);
          case Subject.AgentTask task -> taskSpan(task);
        });
  }

  /** One call being observed. */
  public final class Observation implements AutoCloseable {
    private final Subject subject;
    private final Span span;
    private final long started = System.nanoTime();
    private Scope scope;

    private Observation(Subject subject, Span span) {
      this.subject = subject;
      this.span = span;
      this.scope = span.activate();
    }

    /** The call's span, for what is learnt on the way (a cache hit). */
    public Span span() {
      return span;
    }

    /**
     * The call ended: its span ends, marked failed when it failed or faulted, and its duration
     * metric and audit line are recorded.
     *
     * @param error the one-line message of a failure (never values or connection strings)
     * @param principal whom the call ran for: the auth plugin's identity (a tool call) or the
     *     principal's label (a task); {@code anonymous} when nobody in particular
     */
    public void end(Result result, Optional<String> error, String principal) {
      close();
      long nanos = System.nanoTime() - started;
      String label =
          switch (subject) {
            case Subject.ToolCall call -> toolCallEnded(call, span, result, error, nanos);
            case Subject.AgentTask task -> taskEnded(task, span, result, error, nanos);
          };
      if (audit.enabled()) {
        Instant now = Instant.now();
        String requestId = subject.caller().requestId();
        audit.record(
            switch (subject) {
              case Subject.ToolCall call ->
                  new AuditRecord.ToolCall(
                      now,
                      requestId,
                      principal,
                      call.caller().via(),
                      call.name(),
                      AuditArguments.redact(call.tool(), call.arguments()),
                      result.auditName(),
                      error,
                      nanos / 1e6);
              case Subject.AgentTask task ->
                  new AuditRecord.AgentTask(
                      now,
                      requestId,
                      principal,
                      task.agent(),
                      task.taskId(),
                      task.contextId(),
                      label,
                      result.auditName(),
                      error,
                      nanos / 1e6);
            });
      }
    }

    /** Makes the span no longer current (the call's stages are over). */
    @Override
    public void close() {
      if (scope != null) {
        scope.close();
        scope = null;
      }
    }
  }

  private static Span toolSpan(Subject.ToolCall call) {
    Span span = Telemetry.tracer().start(SpanKind.INTERNAL, "execute_tool", call.name());
    if (span.isRecording()) {
      span.set("gen_ai.operation.name", "execute_tool")
          .set("gen_ai.tool.name", call.name())
          .set("gen_ai.tool.type", call.tool().map(CallObserver::toolType).orElse("extension"))
          .set("svc.request_id", call.caller().requestId());
    }
    return span;
  }

  private static String toolType(Tool tool) {
    return tool.execution() instanceof Execution.OnAdapter ? "datastore" : "function";
  }

  /** Ends a tool call's span and records its metric; returns its {@code error.type}. */
  private static String toolCallEnded(
      Subject.ToolCall call, Span span, Result result, Optional<String> error, long nanos) {
    String errorType =
        switch (result) {
          case OK, CANCELED -> "";
          case ERROR -> "tool_error";
          case FAULT -> "server_error";
        };
    if (!errorType.isEmpty()) {
      span.fail(errorType, error.orElse(""));
    }
    span.end();
    SvcMetrics.TOOL_DURATION.record(nanos / 1e9, call.name(), errorType);
    if (LOG.isDebug()) {
      LOG.debug(
          "tool call", "tool", call.name(), "ms", nanos / 1_000_000, "outcome", result.auditName());
    }
    return errorType;
  }

  private static Span taskSpan(Subject.AgentTask task) {
    Tracer tracer = Telemetry.tracer();
    Span span =
        tracer.enabled()
            ? tracer.startChildOf(task.parent(), SpanKind.INTERNAL, "invoke_agent " + task.agent())
            : Span.NOOP;
    if (span.isRecording()) {
      span.set("gen_ai.operation.name", "invoke_agent")
          .set("gen_ai.agent.name", task.agent())
          .set("gen_ai.conversation.id", task.contextId())
          .set("svc.task.id", task.taskId())
          .set("svc.request_id", task.caller().requestId());
    }
    return span;
  }

  /** Ends a task's span and records its metric; returns the state it ended in. */
  private static String taskEnded(
      Subject.AgentTask task, Span span, Result result, Optional<String> error, long nanos) {
    String state =
        switch (result) {
          case OK -> "completed";
          case CANCELED -> "canceled";
          case ERROR, FAULT -> "failed";
        };
    if (result == Result.ERROR || result == Result.FAULT) {
      span.fail("task_failed", error.orElse("the task failed"));
    }
    span.set("svc.task.state", state).end();
    SvcMetrics.AGENT_TASK_DURATION.record(nanos / 1e9, task.agent(), state);
    return state;
  }
}
