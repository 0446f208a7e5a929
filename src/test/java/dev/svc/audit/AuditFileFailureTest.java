package dev.svc.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.telemetry.SvcMetrics;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An audit file that cannot be written (a full disk, here {@code /dev/full}, whose every write
 * fails with ENOSPC): its lines are counted as {@code failed}, never as {@code written}.
 */
class AuditFileFailureTest {
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
}
