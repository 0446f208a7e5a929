package dev.svc.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** Audit lines: one JSON object per record, appended, written off the calling thread. */
class AuditFileTest {
  @TempDir Path dir;

  @Test
  void toolCallsAndAgentTasksAreOneJsonLineEach() throws Exception {
    Path path = dir.resolve("nested/audit.jsonl");
    try (AuditFile audit = AuditFile.open(path)) {
      audit.record(
          new AuditRecord.ToolCall(
              Instant.parse("2026-01-02T03:04:05Z"),
              "0123456789ab",
              "key:3f2a00112233",
              "agent:helper",
              "get_item",
              JsonMapper.builder().build().readTree("{\"id\":\"[redacted]\"}"),
              "error",
              Optional.of("invalid arguments"),
              1.23456));
      audit.record(
          new AuditRecord.AgentTask(
              Instant.parse("2026-01-02T03:04:06Z"),
              "0123456789ab",
              "anonymous",
              "helper",
              "t-1",
              "c-1",
              "completed",
              "ok",
              Optional.empty(),
              2500));
    }
    assertThat(Files.readAllLines(path))
        .containsExactly(
            "{\"time\":\"2026-01-02T03:04:05Z\",\"kind\":\"tool_call\",\"request_id\":\"0123456789ab\","
                + "\"caller\":\"key:3f2a00112233\",\"via\":\"agent:helper\",\"tool\":\"get_item\","
                + "\"arguments\":{\"id\":\"[redacted]\"},\"outcome\":\"error\","
                + "\"error\":\"invalid arguments\",\"duration_ms\":1.235}",
            "{\"time\":\"2026-01-02T03:04:06Z\",\"kind\":\"agent_task\",\"request_id\":\"0123456789ab\","
                + "\"caller\":\"anonymous\",\"agent\":\"helper\",\"task_id\":\"t-1\","
                + "\"context_id\":\"c-1\",\"state\":\"completed\",\"outcome\":\"ok\","
                + "\"duration_ms\":2500.0}");
    try (AuditFile again = AuditFile.open(path)) {
      again.record(
          new AuditRecord.AgentTask(
              Instant.EPOCH,
              "r",
              "anonymous",
              "a",
              "t",
              "c",
              "failed",
              "error",
              Optional.empty(),
              1));
    }
    assertThat(Files.readAllLines(path)).hasSize(3);
  }
}
