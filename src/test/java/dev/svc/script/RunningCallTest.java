package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Deadline;
import dev.svc.log.Level;
import dev.svc.model.ScriptRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The fetches of a running call: started, capped, taken as they finish, abandoned at the end. */
class RunningCallTest {
  /** A host whose requests finish only when the test completes them. */
  private static final class Requests implements ScriptHost {
    final List<String> sent = new ArrayList<>();
    final List<CompletableFuture<FetchAnswer>> responses = new ArrayList<>();

    @Override
    public void console(Level level, String message) {}

    @Override
    public CompletableFuture<FetchAnswer> fetch(String request) {
      sent.add(request);
      CompletableFuture<FetchAnswer> response = new CompletableFuture<>();
      responses.add(response);
      return response;
    }
  }

  private final Requests host = new Requests();
  private final RunningCall running =
      new RunningCall(
          new ScriptCall(
              new ScriptRef("app/tools/t/handler.ts", "default"),
              "{}",
              "t",
              Deadline.after(Duration.ofSeconds(1)),
              host));

  private static final long SOON = TimeUnit.MILLISECONDS.toNanos(10);

  @Test
  void fetchesAreTakenInTheOrderTheyFinish() throws InterruptedException {
    running.fetch(1, "{\"url\":\"a\"}");
    running.fetch(2, "{\"url\":\"b\"}");

    assertThat(host.sent).containsExactly("{\"url\":\"a\"}", "{\"url\":\"b\"}");
    assertThat(running.next(SOON)).isEmpty();
    host.responses.get(1).complete(FetchAnswer.of("{\"status\":200}"));
    assertThat(running.next(SOON)).contains(new RunningCall.Finished(2, "{\"status\":200}"));
    assertThat(running.awaitsNothing()).isFalse();
    host.responses.get(0).complete(FetchAnswer.of("{\"status\":404}"));
    assertThat(running.next(SOON)).contains(new RunningCall.Finished(1, "{\"status\":404}"));
    assertThat(running.awaitsNothing()).isTrue();
  }

  @Test
  void aFetchPastTheCapFinishesAtOnceWithAnErrorAndSendsNothing() throws InterruptedException {
    for (int id = 1; id <= RunningCall.MAX_FETCHES_IN_FLIGHT + 1; id++) {
      running.fetch(id, "{}");
    }

    assertThat(host.sent).hasSize(RunningCall.MAX_FETCHES_IN_FLIGHT);
    assertThat(running.next(SOON))
        .contains(
            new RunningCall.Finished(
                RunningCall.MAX_FETCHES_IN_FLIGHT + 1,
                "{\"error\":\"more than 64 requests at once\"}"));
  }

  @Test
  void anInterruptWakesTheWaitingThreadAndAbandonCancelsWhatIsStillRunning()
      throws InterruptedException {
    running.fetch(1, "{}");

    running.interrupt();
    Optional<RunningCall.Finished> next = running.next(TimeUnit.SECONDS.toNanos(5));
    running.abandon();

    assertThat(next).containsSame(RunningCall.Finished.INTERRUPTED);
    assertThat(running.awaitsNothing()).isFalse();
    assertThat(host.responses.getFirst()).isCancelled();
  }

  @Test
  void anAnswerHoldsItsShareOfTheFetchBudgetUntilTakenOrAbandoned() throws InterruptedException {
    FetchMemory memory = new FetchMemory(1000);
    FetchMemory.Reservation taken = memory.open();
    FetchMemory.Reservation waiting = memory.open();
    FetchMemory.Reservation late = memory.open();
    assertThat(taken.add(300)).isTrue();
    assertThat(waiting.add(300)).isTrue();
    assertThat(late.add(300)).isTrue();
    assertThat(memory.open().add(200)).as("beyond the budget").isFalse();
    running.fetch(1, "{}");
    running.fetch(2, "{}");
    running.fetch(3, "{}");

    host.responses.get(0).complete(new FetchAnswer("{\"status\":200}", taken::close));
    host.responses.get(1).complete(new FetchAnswer("{\"status\":200}", waiting::close));
    assertThat(running.next(SOON)).contains(new RunningCall.Finished(1, "{\"status\":200}"));
    assertThat(memory.reservedBytes()).isEqualTo(600);
    running.abandon(); // answer 2 is never taken
    assertThat(memory.reservedBytes()).isEqualTo(300);
    assertThat(host.responses.get(2)).as("still running: its fetch closes its share").isCancelled();
    late.close();
    assertThat(memory.reservedBytes()).isZero();
  }
}
