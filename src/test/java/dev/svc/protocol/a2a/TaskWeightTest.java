package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a task is estimated to hold: everything in it a client can make large counts. */
class TaskWeightTest {
  private static Task with(Message message) {
    return new Task(
        "t",
        "c",
        TaskStatus.of(TaskState.SUBMITTED, Instant.EPOCH),
        List.of(),
        List.of(message),
        Optional.empty());
  }

  private static Message message(String text, List<String> extensions, List<String> references) {
    return new Message(
        "m",
        Optional.empty(),
        Optional.empty(),
        Role.USER,
        List.of(Part.text(text)),
        Optional.empty(),
        extensions,
        references);
  }

  @Test
  void aMessagesTextCountsByItsLength() {
    long small = TaskWeight.of(with(message("hi", List.of(), List.of())));
    long big = TaskWeight.of(with(message("x".repeat(1_000_000), List.of(), List.of())));
    assertThat(big - small).isBetween(999_000L, 1_001_000L);
  }

  @Test
  void extensionsAndReferencedTaskIdsCountToo() {
    long plain = TaskWeight.of(with(message("hi", List.of(), List.of())));
    List<String> many = Collections.nCopies(10_000, "0123456789abcdef0123456789abcdef");
    assertThat(TaskWeight.of(with(message("hi", List.of(), many))) - plain).isGreaterThan(320_000L);
    assertThat(TaskWeight.of(with(message("hi", many, List.of()))) - plain).isGreaterThan(320_000L);
  }
}
