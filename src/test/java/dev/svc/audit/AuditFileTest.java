package dev.svc.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.svc.telemetry.SvcMetrics;
import java.io.BufferedReader;
import java.io.FileReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
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

  @Test
  void aStuckFileDropsRecordsWithoutBlockingTheCallerAndCountsThem() throws Exception {
    // a named pipe that is opened but not read stands for a disk that stalls: once the pipe's
    // buffer (64 KiB) is full, the writer thread blocks in write()
    Path fifo = dir.resolve("audit.fifo");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    CompletableFuture<BufferedReader> reader = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(() -> {
          try {
            reader.complete(new BufferedReader(new FileReader(fifo.toFile())));
          } catch (Exception e) {
            reader.completeExceptionally(e);
          }
        });
    long writtenBefore = SvcMetrics.AUDIT_RECORDS.value("written");
    long droppedBefore = SvcMetrics.AUDIT_RECORDS.value("dropped");
    JsonNode arguments =
        JsonMapper.builder().build().readTree("{\"note\":\"" + "x".repeat(4096) + "\"}");
    int records = 200;

    AuditFile audit = AuditFile.open(fifo, 4);
    BufferedReader in = reader.get(10, TimeUnit.SECONDS);
    assertTimeoutPreemptively(
        Duration.ofSeconds(10),
        () -> {
          for (int i = 0; i < records; i++) {
            audit.record(
                new AuditRecord.ToolCall(
                    Instant.EPOCH,
                    "r" + i,
                    "anonymous",
                    "mcp",
                    "t",
                    arguments,
                    "ok",
                    Optional.empty(),
                    1));
          }
        },
        "recording waited for the stuck file");

    long dropped = SvcMetrics.AUDIT_RECORDS.value("dropped") - droppedBefore;
    assertThat(dropped).isPositive();
    // once the file moves again, every line that was not dropped arrives, whole, and is counted
    // as written once its write returned
    CompletableFuture<Long> lines =
        CompletableFuture.supplyAsync(() -> in.lines().filter(l -> l.endsWith("}")).count());
    audit.close();
    assertThat(lines.get(10, TimeUnit.SECONDS)).isEqualTo(records - dropped);
    assertThat(SvcMetrics.AUDIT_RECORDS.value("written") - writtenBefore)
        .isEqualTo(records - dropped);
    in.close();
  }
}
