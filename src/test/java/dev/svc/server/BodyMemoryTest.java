package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BodyMemoryTest {
  @Test
  void anEighthOfTheHeapAndNeverLessThanOneLargestBody() {
    assertThat(BodyMemory.forHeap(512L << 20, 4 << 20).budgetBytes()).isEqualTo(64L << 20);
    assertThat(BodyMemory.forHeap(16L << 20, 4 << 20).budgetBytes()).isEqualTo(4L << 20);
  }

  @Test
  void holdsTakeUntilTheBudgetIsFullAndGiveBackOnce() {
    BodyMemory memory = new BodyMemory(100);
    BodyMemory.Hold first = memory.hold();
    BodyMemory.Hold second = memory.hold();
    assertThat(first.reserve(60)).isTrue();
    assertThat(second.reserve(50)).as("past the budget").isFalse();
    assertThat(second.reserve(40)).isTrue();
    assertThat(memory.reservedBytes()).isEqualTo(100);

    first.close();
    first.close();
    assertThat(memory.reservedBytes()).isEqualTo(40);
    assertThat(first.reserve(10)).as("a closed hold takes nothing more").isFalse();
    second.close();
    assertThat(memory.reservedBytes()).isZero();
  }

  @Test
  void theUncountedHoldTakesFromNoBudget() {
    assertThat(BodyMemory.Hold.UNCOUNTED.reserve(Long.MAX_VALUE / 2)).isTrue();
    BodyMemory.Hold.UNCOUNTED.close();
    assertThat(BodyMemory.Hold.UNCOUNTED.reserve(1)).isTrue();
  }
}
