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
  void aLongStreamedAnswerCostsTimeInItsLengthNotItsSquare() {
    // the artifact was rebuilt from the whole text so far at every chunk: 400,000 chunks of four
    // characters (a 1.6 MB answer) copied 320 GB, tens of seconds under the run's lock
    TaskRun run = run();
    long start = System.nanoTime();
    for (int i = 0; i < 400_000; i++) {
      run.chunk("abcd");
    }
    long millis = (System.nanoTime() - start) / 1_000_000;

    assertThat(millis).as("ms for 400,000 chunks").isLessThan(5_000);
    Artifact streamed = run.task().artifacts().getFirst();
    assertThat(((Part.Text) streamed.parts().getFirst().content()).text())
        .as("the task shows what was sent (the last chunk waits for the next)")
        .hasSize(4 * 399_999);
    run.answer("whole");
    assertThat(((Part.Text) run.task().artifacts().getFirst().parts().getFirst().content()).text())
        .isEqualTo("whole");
  }
}
