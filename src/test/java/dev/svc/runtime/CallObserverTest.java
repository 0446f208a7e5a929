package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.audit.AuditRecord;
import dev.svc.audit.AuditTrail;
import dev.svc.call.Caller;
import dev.svc.json.Json;
import dev.svc.telemetry.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the observer writes to the audit trail from how a tool call or an agent task ended. */
class CallObserverTest {
  private final List<AuditRecord> records = new ArrayList<>();
  private final CallObserver observer =
      new CallObserver(
          new AuditTrail() {
            @Override
            public boolean enabled() {
              return true;
            }

            @Override
            public void record(AuditRecord record) {
              records.add(record);
            }

            @Override
            public void close() {}
          });

  private final Caller caller = Caller.internal("req-7").via("agent:helper");

  private void toolCall(CallObserver.Result result, Optional<String> error) {
    try (CallObserver.Observation observation =
        observer.start(
            new CallObserver.Subject.ToolCall(
                "search", Optional.empty(), Json.MAPPER.readTree("{\"limit\":3}"), caller))) {
      observation.end(result, error, "key:3f2a");
    }
  }

  @Test
  void aToolCallIsAuditedWithItsOutcomeItsPrincipalAndItsChannel() {
    toolCall(CallObserver.Result.OK, Optional.empty());
    toolCall(CallObserver.Result.ERROR, Optional.of("invalid arguments"));
    toolCall(CallObserver.Result.FAULT, Optional.of("the database is unavailable"));

    assertThat(records)
        .allSatisfy(record -> {
          AuditRecord.ToolCall call = (AuditRecord.ToolCall) record;
          assertThat(call.requestId()).isEqualTo("req-7");
          assertThat(call.caller()).isEqualTo("key:3f2a");
          assertThat(call.via()).isEqualTo("agent:helper");
          assertThat(call.tool()).isEqualTo("search");
          assertThat(call.arguments()).hasToString("{\"limit\":3}");
        });
    assertThat(records).extracting(AuditRecord::outcome).containsExactly("ok", "error", "fault");
    assertThat(records)
        .extracting(r -> ((AuditRecord.ToolCall) r).error())
        .containsExactly(
            Optional.empty(),
            Optional.of("invalid arguments"),
            Optional.of("the database is unavailable"));
  }

  @Test
  void anAgentTaskIsAuditedWithTheStateItsResultStandsFor() {
    for (CallObserver.Result result :
        List.of(CallObserver.Result.OK, CallObserver.Result.ERROR, CallObserver.Result.CANCELED)) {
      observer
          .start(new CallObserver.Subject.AgentTask("helper", "t1", "c1", caller, Span.NOOP))
          .end(result, Optional.empty(), "anonymous");
    }

    assertThat(records)
        .extracting(r -> ((AuditRecord.AgentTask) r).state())
        .containsExactly("completed", "failed", "canceled");
    assertThat(records).extracting(AuditRecord::outcome).containsExactly("ok", "error", "canceled");
    assertThat(records).extracting(r -> ((AuditRecord.AgentTask) r).taskId()).containsOnly("t1");
  }
}
