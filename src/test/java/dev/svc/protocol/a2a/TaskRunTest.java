package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A running task's subscribers: each gets every event, and one that stops reading is let go. */
class TaskRunTest {
  private static TaskRun run() {
    Task task =
        new Task(
            "t",
            "c",
            TaskStatus.of(TaskState.WORKING, Instant.EPOCH),
            List.of(),
            List.of(),
            Optional.empty());
    return new TaskRun(
        "agent",
        task,
        Clock.systemUTC(),
        new TaskRun.Changes() {
          @Override
          public void statusChanged(Task changed, long seq) {}

          @Override
          public void published(long seq, StreamResponse event) {}
        });
  }

  @Test
  void aSubscriberThatStopsReadingIsDroppedAndTheOthersGetEveryEvent() {
    TaskRun run = run();
    TaskRun.Subscription stuck = run.subscribe();
    TaskRun.Subscription reading = run.subscribe();
    List<StreamResponse> read = new ArrayList<>();

    for (int i = 0; i < TaskRun.MAX_QUEUED_EVENTS + 2; i++) {
      run.chunk("x"); // each chunk is sent when the next comes: one event fewer than calls
      reading.events().drainTo(read);
    }

    assertThat(stuck.dropped().get()).isTrue();
    assertThat(stuck.events()).as("what it had queued is let go too").isEmpty();
    assertThat(reading.dropped().get()).isFalse();
    assertThat(read).hasSize(TaskRun.MAX_QUEUED_EVENTS + 1);
    run.chunk("more");
    assertThat(stuck.events()).as("no events after it was dropped").isEmpty();
  }

  @Test
  void aStreamedAnswerIsCaughtUpWhenTheTaskIsReadAndReplacedByTheWholeAnswer() {
    // a chunk only appends (the artifact was rebuilt from the whole text at every chunk: quadratic
    // in the answer's length, bench figures in bench/RESULTS.md); reads in between still show it
    TaskRun run = run();
    for (int i = 0; i < 1_000; i++) {
      run.chunk("abcd");
    }
    assertThat(streamedText(run))
        .as("the task shows what was sent (the last chunk waits for the next)")
        .hasSize(4 * 999);
    for (int i = 0; i < 1_000; i++) {
      run.chunk("efgh");
    }
    assertThat(streamedText(run)).isEqualTo("abcd".repeat(1_000) + "efgh".repeat(999));

    run.answer("whole");

    assertThat(streamedText(run)).isEqualTo("whole");
  }

  private static String streamedText(TaskRun run) {
    Artifact streamed = run.task().artifacts().getFirst();
    return ((Part.Text) streamed.parts().getFirst().content()).text();
  }
}
