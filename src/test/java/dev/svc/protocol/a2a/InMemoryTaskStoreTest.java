package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.auth.Principal;
import dev.svc.call.Headers;
import dev.svc.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InMemoryTaskStoreTest {
  static Task task(String id, String context, TaskState state, Instant at) {
    return new Task(id, context, TaskStatus.of(state, at), List.of(), List.of(), Optional.empty());
  }

  static TaskStore.Scope scope(String agent) {
    return new TaskStore.Scope(agent, Principal.ANONYMOUS);
  }

  static TaskStore.Query all(int pageSize) {
    return new TaskStore.Query(
        Optional.empty(), Optional.empty(), Optional.empty(), pageSize, Optional.empty());
  }

  @Test
  void finishedTasksExpireAfterTheRetentionAndRunningOnesStay() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    InMemoryTaskStore store = new InMemoryTaskStore(100, Duration.ofHours(1), clock);
    store.save(scope("a"), task("done", "c", TaskState.COMPLETED, clock.instant()));
    store.save(scope("a"), task("running", "c", TaskState.WORKING, clock.instant()));
    clock.advance(Duration.ofMinutes(61));
    assertThat(store.find(scope("a"), "done")).isEmpty();
    assertThat(store.find(scope("a"), "running")).isPresent();
    assertThat(store.context(scope("a"), "c")).extracting(Task::id).containsExactly("running");
    assertThat(store.size()).isEqualTo(1);
  }

  @Test
  void whenFullTheOldestFinishedTaskGoesFirstAndRunningTasksNever() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    InMemoryTaskStore store = new InMemoryTaskStore(2, Duration.ofDays(1), clock);
    store.save(scope("a"), task("old", "c", TaskState.COMPLETED, clock.instant()));
    clock.advance(Duration.ofSeconds(1));
    store.save(scope("a"), task("run", "c", TaskState.WORKING, clock.instant()));
    clock.advance(Duration.ofSeconds(1));
    store.save(scope("a"), task("new", "c", TaskState.SUBMITTED, clock.instant()));
    assertThat(store.find(scope("a"), "old")).isEmpty();
    assertThat(store.find(scope("a"), "run")).isPresent();
    assertThat(store.find(scope("a"), "new")).isPresent();
    store.save(scope("a"), task("more", "c", TaskState.SUBMITTED, clock.instant()));
    assertThat(store.size()).as("running tasks are never dropped").isEqualTo(3);
  }

  /** A task holding a user message of {@code chars} characters. */
  static Task big(String id, TaskState state, Instant at, int chars) {
    return TaskStoreContract.task(id, "c", state, at, "x".repeat(chars));
  }

  @Test
  void theHeapTasksTakeIsBoundedFinishedOnesGoFirstAndANewTaskWithoutRoomIsRefused() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    InMemoryTaskStore store = new InMemoryTaskStore(100, 10_000, Duration.ofDays(1), clock);
    store.save(scope("a"), big("done", TaskState.COMPLETED, clock.instant(), 4_000));
    clock.advance(Duration.ofSeconds(1));
    store.save(scope("a"), big("running", TaskState.WORKING, clock.instant(), 4_000));
    clock.advance(Duration.ofSeconds(1));

    store.save(scope("a"), big("next", TaskState.SUBMITTED, clock.instant(), 4_000));

    assertThat(store.find(scope("a"), "done")).as("the finished task made room").isEmpty();
    assertThat(store.find(scope("a"), "running")).isPresent();
    assertThat(store.find(scope("a"), "next")).isPresent();
    assertThatThrownBy(
            () -> store.save(scope("a"), big("more", TaskState.SUBMITTED, clock.instant(), 4_000)))
        .isInstanceOf(TaskStoreFullException.class)
        .hasMessageContaining("retry when some have finished");
    assertThat(store.find(scope("a"), "more")).isEmpty();

    store.save(scope("a"), big("running", TaskState.COMPLETED, clock.instant(), 4_000));
    store.save(scope("a"), big("more", TaskState.SUBMITTED, clock.instant(), 4_000));
    assertThat(store.find(scope("a"), "running")).as("finished since: dropped for room").isEmpty();
    assertThat(store.find(scope("a"), "more")).isPresent();
  }

  @Test
  void aRunningTaskThatGrowsIsKeptAndFinishedOnesMakeRoom() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    InMemoryTaskStore store = new InMemoryTaskStore(100, 10_000, Duration.ofDays(1), clock);
    store.save(scope("a"), big("done", TaskState.COMPLETED, clock.instant(), 3_000));
    store.save(scope("a"), big("running", TaskState.WORKING, clock.instant(), 100));

    store.save(scope("a"), big("running", TaskState.WORKING, clock.instant(), 9_000));

    assertThat(store.find(scope("a"), "running")).isPresent();
    assertThat(store.find(scope("a"), "done")).isEmpty();
  }

  @Test
  void tasksArePerAgent() {
    InMemoryTaskStore store = new InMemoryTaskStore();
    store.save(scope("a"), task("t", "c", TaskState.COMPLETED, Instant.now()));
    assertThat(store.find(scope("b"), "t")).isEmpty();
    assertThat(store.list(scope("b"), all(10)).totalSize()).isZero();
  }

  @Test
  void listingIsNewestFirstAndPagesDoNotSkipTies() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    InMemoryTaskStore store = new InMemoryTaskStore(100, Duration.ofDays(1), clock);
    Instant same = clock.instant();
    for (String id : List.of("a", "b", "c", "d")) {
      store.save(scope("x"), task(id, "c", TaskState.COMPLETED, same));
    }
    store.save(scope("x"), task("e", "c", TaskState.COMPLETED, same.plusMillis(5)));
    TaskStore.Page first = store.list(scope("x"), all(2));
    assertThat(first.tasks()).extracting(Task::id).containsExactly("e", "d");
    TaskStore.Page second =
        store.list(
            scope("x"),
            new TaskStore.Query(
                Optional.empty(), Optional.empty(), Optional.empty(), 2, first.next()));
    assertThat(second.tasks()).extracting(Task::id).containsExactly("c", "b");
    TaskStore.Page third =
        store.list(
            scope("x"),
            new TaskStore.Query(
                Optional.empty(), Optional.empty(), Optional.empty(), 2, second.next()));
    assertThat(third.tasks()).extracting(Task::id).containsExactly("a");
    assertThat(third.next()).isEmpty();
    assertThat(third.totalSize()).isEqualTo(5);
  }

  @Test
  void pushConfigsGoWithTheirTask() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    InMemoryTaskStore store = new InMemoryTaskStore(100, Duration.ofMinutes(1), clock);
    store.save(scope("a"), task("t", "c", TaskState.COMPLETED, clock.instant()));
    store.savePushConfig(
        scope("a"), new PushConfig("p", "t", "https://h/", Optional.empty(), Optional.empty()));
    store.savePushConfig(
        scope("a"), new PushConfig("q", "nope", "https://h/", Optional.empty(), Optional.empty()));
    assertThat(store.pushConfigs(scope("a"), "t")).extracting(PushConfig::id).containsExactly("p");
    assertThat(store.pushConfigs(scope("a"), "nope")).isEmpty();
    assertThat(store.deletePushConfig(scope("a"), "t", "p")).isTrue();
    assertThat(store.deletePushConfig(scope("a"), "t", "p")).isFalse();
  }

  @Test
  void tasksArePerPrincipal() {
    InMemoryTaskStore store = new InMemoryTaskStore();
    Principal alice = Principal.fromCredentials(Headers.of("X-API-Key", "alice"));
    Principal bob = Principal.fromCredentials(Headers.of("X-API-Key", "bob"));
    TaskStore.Scope aliceScope = new TaskStore.Scope("a", alice);
    TaskStore.Scope bobScope = new TaskStore.Scope("a", bob);
    store.save(aliceScope, task("t", "shared-context", TaskState.COMPLETED, Instant.now()));
    store.savePushConfig(
        aliceScope, new PushConfig("p", "t", "https://h/", Optional.empty(), Optional.empty()));

    assertThat(store.find(aliceScope, "t")).isPresent();
    for (TaskStore.Scope other : List.of(bobScope, scope("a"))) {
      assertThat(store.find(other, "t")).isEmpty();
      assertThat(store.context(other, "shared-context")).isEmpty();
      assertThat(store.list(other, all(10)).totalSize()).isZero();
      assertThat(store.pushConfigs(other, "t")).isEmpty();
      assertThat(store.deletePushConfig(other, "t", "p")).isFalse();
    }
    store.save(bobScope, task("t", "shared-context", TaskState.WORKING, Instant.now()));
    assertThat(store.find(aliceScope, "t").orElseThrow().status().state())
        .as("another principal's save never replaces the task")
        .isEqualTo(TaskState.COMPLETED);
    assertThat(store.pushConfigs(aliceScope, "t")).hasSize(1);
  }

  static PushConfig config(String taskId, int i, int chars) {
    return new PushConfig(
        "cfg-" + i,
        taskId,
        "https://hooks.example.com/" + i,
        Optional.of("t".repeat(chars)),
        Optional.empty());
  }

  @Test
  void pushConfigsCountInTheHeapBudgetAndFinishedTasksMakeRoomForThem() {
    // ten 16 KiB configs on each of 10,000 finished tasks were 1.6 GB the budget did not see
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    InMemoryTaskStore store = new InMemoryTaskStore(10_000, 1 << 20, Duration.ofDays(1), clock);
    for (int t = 0; t < 100; t++) {
      store.save(scope("a"), task("t" + t, "c", TaskState.COMPLETED, clock.instant()));
      for (int i = 0; i < 10; i++) {
        store.savePushConfig(scope("a"), config("t" + t, i, 16 * 1024));
      }
      clock.advance(Duration.ofSeconds(1));
    }

    long held = 0;
    for (int t = 0; t < 100; t++) {
      for (PushConfig config : store.pushConfigs(scope("a"), "t" + t)) {
        held += config.token().orElseThrow().length();
      }
    }
    assertThat(held).as("config bytes kept").isLessThanOrEqualTo(1 << 20);
    assertThat(store.find(scope("a"), "t99")).as("the newest stays").isPresent();
    assertThat(store.pushConfigs(scope("a"), "t99")).hasSize(10);
    assertThat(store.find(scope("a"), "t0")).as("the oldest made room").isEmpty();

    // a running task's configs do not push it out; without a finished task to drop, refused
    InMemoryTaskStore small = new InMemoryTaskStore(100, 100_000, Duration.ofDays(1), clock);
    small.save(scope("a"), task("run", "c", TaskState.WORKING, clock.instant()));
    small.savePushConfig(scope("a"), config("run", 0, 60_000));
    assertThatThrownBy(() -> small.savePushConfig(scope("a"), config("run", 1, 60_000)))
        .isInstanceOf(TaskStoreFullException.class);
    assertThat(small.pushConfigs(scope("a"), "run")).hasSize(1);
    small.savePushConfig(scope("a"), config("run", 0, 10)); // replacing by id frees its bytes
    small.savePushConfig(scope("a"), config("run", 1, 60_000));
    assertThat(small.deletePushConfig(scope("a"), "run", "cfg-1")).isTrue();
    small.savePushConfig(scope("a"), config("run", 2, 60_000));
    assertThat(small.pushConfigs(scope("a"), "run")).hasSize(2);
  }

  @Test
  void aMessageIdIsForgottenWithItsTaskSoClaimsStayWithinTheTaskBudget() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    InMemoryTaskStore store = new InMemoryTaskStore(1, Duration.ofHours(1), clock);
    assertThat(store.claimMessage(scope("a"), "m-1", "t1")).isEmpty();
    assertThat(store.claimMessage(scope("a"), "m-1", "t-retry"))
        .as("held while its task is being started")
        .contains("t1");
    store.save(scope("a"), task("t1", "c", TaskState.COMPLETED, clock.instant()));
    assertThat(store.claimMessage(scope("a"), "m-1", "t-retry")).contains("t1");

    assertThat(store.claimMessage(scope("a"), "m-2", "t2")).isEmpty();
    store.save(scope("a"), task("t2", "c", TaskState.COMPLETED, clock.instant())); // t1 goes
    assertThat(store.find(scope("a"), "t1")).isEmpty();
    assertThat(store.claimMessage(scope("a"), "m-1", "t3")).isEmpty();

    clock.advance(Duration.ofMinutes(61)); // t2 expired, not yet dropped
    assertThat(store.claimMessage(scope("a"), "m-2", "t4")).isEmpty();
  }
}
