package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.ScriptRef;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Which isolates the limit of idle-or-short ones counts. */
class IsolateLimitsTest {
  private final AtomicLong now = new AtomicLong();
  private final RunningCalls running = new RunningCalls(now::get);
  private final IsolateLimits limits = new IsolateLimits(1, new ScriptMemory(1024, 64), running);
  private final ScriptRef handler = new ScriptRef("app/tools/t/handler.ts", "default");

  @Test
  void aShortCallComputingHoldsItsPlace() {
    assertThat(limits.tryReserve()).isTrue();
    running.start(handler, true);

    assertThat(limits.hasRoom()).isFalse();
    assertThat(limits.tryReserve()).isFalse();
  }

  @Test
  void aCallWaitingForAFetchLeavesTheCount_soTheNextCallGetsAnIsolateAtOnce() {
    assertThat(limits.tryReserve()).isTrue();
    RunningCalls.Run fetching = running.start(handler, true);
    fetching.waiting(true);

    assertThat(limits.hasRoom()).isTrue();
    assertThat(limits.tryReserve()).isTrue();
    assertThat(limits.count()).isEqualTo(2);

    fetching.waiting(false); // its answer came: the second isolate is now one too many
    assertThat(limits.beyondShortCalls()).isTrue();
  }

  @Test
  void aLongCallLeavesTheCountToo() {
    assertThat(limits.tryReserve()).isTrue();
    running.start(handler, true);
    now.addAndGet(RunningCalls.LONG_CALL.toNanos());

    assertThat(limits.tryReserve()).isTrue();
  }
}
