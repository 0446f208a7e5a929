package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.json.JsonFootprint;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class ResultMemoryTest {
  private static final long MIB = 1024 * 1024;

  @Test
  void theBudgetIsAQuarterOfTheHeapAndTheCeilingAQuarterOfThat() {
    ResultMemory memory = ResultMemory.ofHeap(512 * MIB);

    assertThat(memory.budgetBytes()).isEqualTo(128 * MIB);
    assertThat(memory.ceilingBytes()).isEqualTo(32 * MIB);
    assertThat(ResultMemory.ofHeap(64 * 1024 * MIB).ceilingBytes())
        .isEqualTo(ResultMemory.MAX_CEILING_BYTES);
    assertThat(ResultMemory.ofHeap(8 * MIB).budgetBytes()).isEqualTo(4 * MIB);
  }

  @Test
  void aResultPastTheCeilingIsRefusedWithWhatToDo() {
    ResultMemory memory = new ResultMemory(16 * MIB, 4 * MIB);

    try (ResultMemory.Account call = memory.open()) {
      call.add(3 * MIB);
      ResultRefusedException refused =
          catchThrowableOfType(ResultRefusedException.class, () -> call.add(2 * MIB));

      assertThat(refused.limit()).isEqualTo(ResultRefusedException.Limit.CEILING);
      assertThat(refused)
          .hasMessage(
              "the result passed svc's ceiling of 4 MiB for one result and was stopped; set"
                  + " max_rows or max_bytes on the tool (0 turns them off), filter the rows, or"
                  + " aggregate in the statement");
      assertThat(call.usedBytes()).isEqualTo(3 * MIB);
    }
  }

  @Test
  void callsInFlightShareTheBudgetAndGiveTheirBytesBackWhenDone() {
    ResultMemory memory = new ResultMemory(8 * MIB, 4 * MIB);
    ResultMemory.Account first = memory.open();
    ResultMemory.Account second = memory.open();
    first.add(4 * MIB);
    second.add(3 * MIB);

    try (ResultMemory.Account third = memory.open()) {
      ResultRefusedException refused =
          catchThrowableOfType(ResultRefusedException.class, () -> third.add(2 * MIB));
      assertThat(refused.limit()).isEqualTo(ResultRefusedException.Limit.BUDGET);
      assertThat(refused.getMessage())
          .startsWith("the server is holding 7 MiB of results right now (its budget is 8 MiB)")
          .endsWith("try again in a moment, or ask for fewer rows");
    }
    first.close();
    second.close();

    assertThat(memory.reservedBytes()).isZero();
    try (ResultMemory.Account fourth = memory.open()) {
      fourth.add(4 * MIB);
      assertThat(memory.reservedBytes()).isEqualTo(4 * MIB);
    }
    assertThat(memory.reservedBytes()).isZero();
  }

  @Test
  void smallResultsReserveOneStepAndClosingTwiceGivesItBackOnce() {
    ResultMemory memory = new ResultMemory(8 * MIB, 4 * MIB);
    ResultMemory.Account call = memory.open();
    call.add(200);
    call.add(300);

    assertThat(call.usedBytes()).isEqualTo(500);
    assertThat(memory.reservedBytes()).isEqualTo(ResultMemory.STEP_BYTES);
    call.close();
    call.close();
    assertThat(memory.reservedBytes()).isZero();
    assertThatThrownBy(() -> call.add(1)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void manyConcurrentCallsNeverReserveMoreThanTheBudget() throws InterruptedException {
    ResultMemory memory = new ResultMemory(2 * MIB, MIB);
    int calls = 16;
    AtomicInteger refused = new AtomicInteger();
    AtomicLong mostReserved = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch tried = new CountDownLatch(calls); // every call holds its rows until all tried
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      threads.add(
          Thread.ofVirtual()
              .start(() -> {
                try (ResultMemory.Account call = memory.open()) {
                  start.await();
                  try {
                    for (int row = 0; row < 4_000; row++) { // 800 KB: within the ceiling
                      call.add(200);
                      mostReserved.accumulateAndGet(memory.reservedBytes(), Math::max);
                    }
                  } catch (ResultRefusedException e) {
                    assertThat(e.limit()).isEqualTo(ResultRefusedException.Limit.BUDGET);
                    refused.incrementAndGet();
                  } finally {
                    tried.countDown();
                  }
                  tried.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }));
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }

    assertThat(refused.get()).isBetween(calls - 2, calls - 1); // two fit in the budget at most
    assertThat(mostReserved.get()).isPositive().isLessThanOrEqualTo(2 * MIB);
    assertThat(memory.reservedBytes()).isZero();
  }

  @Test
  void aRowsFootprintCountsItsFieldsAndText() {
    ObjectNode small = JsonNodeFactory.instance.objectNode().put("g", 1);
    ObjectNode text = JsonNodeFactory.instance.objectNode().put("g", "x".repeat(1000));

    assertThat(JsonFootprint.of(small))
        .isEqualTo(JsonFootprint.OBJECT + JsonFootprint.FIELD + 1 + JsonFootprint.NUMBER);
    assertThat(JsonFootprint.of(text) - JsonFootprint.of(small))
        .isEqualTo(JsonFootprint.STRING + 1000 - JsonFootprint.NUMBER);
    assertThat(JsonFootprint.of(JsonNodeFactory.instance.arrayNode().add(small).add(small)))
        .isEqualTo(JsonFootprint.ARRAY + 2 * (JsonFootprint.ELEMENT + JsonFootprint.of(small)));
  }
}
