package dev.svc.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.svc.json.Json;
import dev.svc.telemetry.SvcMetrics;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An audit file that cannot be written (a full disk, here {@code /dev/full}, whose every write
 * fails with ENOSPC): its lines are counted as {@code failed}, never as {@code written}; one that
 * cannot even be opened (a named pipe nothing reads) is an error, not a start that hangs.
 */
class AuditFileFailureTest {
  @TempDir Path dir;

  @Test
  void aNamedPipeThatNothingReadsFailsToOpenInsteadOfHangingTheStart() throws Exception {
    Path fifo = dir.resolve("audit.fifo");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

    // the timeout only keeps a regression from hanging the build
    assertTimeoutPreemptively(
        Duration.ofMinutes(2),
        () ->
            assertThatThrownBy(() -> AuditFile.open(fifo))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage(
                    "cannot open the audit file "
                        + fifo
                        + ": it did not open within 5 s (a named pipe that nothing reads?)"));
  }

  @Test
  void linesThatCannotBeWrittenAreCountedAsFailedNotWritten() {
    long writtenBefore = SvcMetrics.AUDIT_RECORDS.value("written");
    long failedBefore = SvcMetrics.AUDIT_RECORDS.value("failed");

    try (AuditFile audit = AuditFile.open(Path.of("/dev/full"))) {
      for (int i = 0; i < 50; i++) {
        audit.record(
            new AuditRecord.ToolCall(
                Instant.EPOCH,
                "r" + i,
                "anonymous",
                "mcp",
                "t",
                Json.NODES.objectNode(),
                "ok",
                Optional.empty(),
                1));
      }
    }

    assertThat(SvcMetrics.AUDIT_RECORDS.value("written") - writtenBefore).isZero();
    assertThat(SvcMetrics.AUDIT_RECORDS.value("failed") - failedBefore).isEqualTo(50);
  }

  @Test
  void aHugeFailureMessageIsCutSoTheLineStaysSmall() {
    String line =
        AuditFile.line(
            new AuditRecord.ToolCall(
                Instant.EPOCH,
                "r",
                "anonymous",
                "mcp",
                "t",
                Json.NODES.objectNode(),
                "error",
                Optional.of("handler failed: " + "x".repeat(3_000_000)),
                1));

    assertThat(line).hasSizeLessThan(2_000);
    assertThat(line).contains("xxx… (3000016 characters)\"");
  }
}
