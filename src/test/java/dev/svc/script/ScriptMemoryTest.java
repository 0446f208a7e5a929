package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The process's memory ceiling for scripts: isolates alive × their heap cap. */
class ScriptMemoryTest {
  static final long MIB = 1024L * 1024;

  @Test
  void theCeilingHoldsAsManyHeapsAsFit_andReservationsStopThere() {
    ScriptMemory memory = new ScriptMemory(300, 128);
    assertThat(memory.maxIsolates()).isEqualTo(2);

    assertThat(memory.tryReserve()).isTrue();
    assertThat(memory.tryReserve()).isTrue();
    assertThat(memory.tryReserve()).isFalse();
    assertThat(memory.isFull()).isTrue();
    assertThat(memory.reservedBytes()).isEqualTo(256 * MIB);
    assertThat(memory.limitBytes()).isEqualTo(300 * MIB);

    memory.release();
    assertThat(memory.isFull()).isFalse();
    assertThat(memory.tryReserve()).isTrue();
  }

  @Test
  void aCeilingBelowOneHeapIsRefused() {
    assertThatThrownBy(() -> new ScriptMemory(100, 128))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theDefaultIsHalfOfTheMemoryBesideTheJvmHeap_atMost4GiB_andAtLeastOneHeap() {
    long beside = ScriptMemory.physicalBytes() - Runtime.getRuntime().maxMemory();
    assertThat(ScriptMemory.physicalBytes()).isPositive();
    assertThat(ScriptMemory.defaultLimitMb(8))
        .isEqualTo(Math.max(8, Math.min(4096, beside / 2 / MIB)));
    assertThat(ScriptMemory.defaultLimitMb(8)).isLessThanOrEqualTo(4096);
    assertThat(ScriptMemory.defaultLimitMb(1 << 30)).isEqualTo(1 << 30);
  }
}
