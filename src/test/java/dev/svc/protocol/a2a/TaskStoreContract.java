package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.auth.Principal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every {@link TaskStore} does, whatever holds the tasks: run against the in-memory store
 * ({@link InMemoryTaskStoreContractTest}), PostgreSQL ({@link PostgresTaskStoreIT}) and Redis
 * ({@link RedisTaskStoreIT}). The shared stores add {@link SharedTaskStoreContract}.
 */
abstract class TaskStoreContract {
  static final Principal ALICE = new Principal("key:" + "a".repeat(64));
  static final Principal BOB = new Principal("oauth:bob");
  static final TaskStore.Scope WEATHER_ALICE = new TaskStore.Scope("weather", ALICE);
  static final TaskStore.Scope WEATHER_BOB = new TaskStore.Scope("weather", BOB);
  static final TaskStore.Scope CHAT_ALICE = new TaskStore.Scope("chat", ALICE);
  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  /** The store under test, empty at the start of each test. */
  abstract TaskStore store();

  static String newId() {
    return UUID.randomUUID().toString();
  }

  static Task task(String id, String context, TaskState state, Instant at) {
    return task(id, context, state, at, "hello ünïcode");
  }

  /** A task whose one message says {@code text}. */
  static Task task(String id, String context, TaskState state, Instant at, String text) {
    return new Task(
        id,
        context,
        TaskStatus.of(state, at),
        List.of(),
        List.of(
            new Message(
                "m-" + id,
                Optional.of(context),
                Optional.of(id),
                Role.USER,
                List.of(Part.text(text)),
                Optional.empty(),
                List.of(),
                List.of())),
        Optional.empty());
  }

  /** Every task, {@code pageSize} at a time, from {@code cursor} (a page's {@code next}) on. */
  static TaskStore.Query from(int pageSize, Optional<TaskStore.Cursor> cursor) {
    return new TaskStore.Query(
        Optional.empty(), Optional.empty(), Optional.empty(), pageSize, cursor);
  }

  static TaskStore.Query all(int pageSize) {
    return new TaskStore.Query(
        Optional.empty(), Optional.empty(), Optional.empty(), pageSize, Optional.empty());
  }

  @Test
  void aSavedTaskIsFoundWholeInItsScopeAndNowhereElse() {
    Task task =
        task(newId(), "ctx", TaskState.COMPLETED, T0)
            .withArtifacts(List.of(Artifact.text("a1", "answer", "Sunny.")));
    store().save(WEATHER_ALICE, task);

    assertThat(store().find(WEATHER_ALICE, task.id())).contains(task);
    assertThat(store().find(WEATHER_BOB, task.id())).as("another principal").isEmpty();
    assertThat(store().find(CHAT_ALICE, task.id())).as("another agent").isEmpty();
    assertThat(store().find(WEATHER_ALICE, "never-made")).isEmpty();
  }

  @Test
  void savingAgainReplacesTheTasksState() {
    Task submitted = task(newId(), "ctx", TaskState.SUBMITTED, T0);
    store().save(WEATHER_ALICE, submitted);
    Task working = submitted.withStatus(TaskStatus.of(TaskState.WORKING, T0.plusSeconds(1)));
    store().save(WEATHER_ALICE, working);

    assertThat(store().find(WEATHER_ALICE, submitted.id())).contains(working);
  }

  @Test
  void anotherPrincipalCannotOverwriteATask() {
    Task task = task(newId(), "ctx", TaskState.WORKING, T0);
    store().save(WEATHER_ALICE, task);
    store().save(WEATHER_BOB, task.withStatus(TaskStatus.of(TaskState.CANCELED, T0)));

    assertThat(store().find(WEATHER_ALICE, task.id()).orElseThrow().status().state())
        .isEqualTo(TaskState.WORKING);
  }

  @Test
  void listingShowsTheNewestStatusFirstAndPagesWithACursor() {
    List<String> ids =
        List.of("t1", "t2", "t3", "t4", "t5").stream().map(n -> n + newId()).toList();
    for (int i = 0; i < ids.size(); i++) {
      store().save(WEATHER_ALICE, task(ids.get(i), "ctx", TaskState.COMPLETED, T0.plusSeconds(i)));
    }
    store().save(WEATHER_BOB, task(newId(), "ctx", TaskState.COMPLETED, T0.plusSeconds(9)));

    TaskStore.Page first = store().list(WEATHER_ALICE, all(2));
    assertThat(first.tasks()).extracting(Task::id).containsExactly(ids.get(4), ids.get(3));
    assertThat(first.totalSize()).isEqualTo(5);
    TaskStore.Page second = store().list(WEATHER_ALICE, from(2, first.next()));
    assertThat(second.tasks()).extracting(Task::id).containsExactly(ids.get(2), ids.get(1));
    TaskStore.Page last = store().list(WEATHER_ALICE, from(2, second.next()));
    assertThat(last.tasks()).extracting(Task::id).containsExactly(ids.get(0));
    assertThat(last.next()).isEmpty();
    assertThat(last.totalSize()).isEqualTo(5);
  }

  @Test
  void tasksWithTheSameStatusTimeAreListedByIdDescending() {
    store().save(WEATHER_ALICE, task("b-" + newId(), "ctx", TaskState.COMPLETED, T0));
    store().save(WEATHER_ALICE, task("a-" + newId(), "ctx", TaskState.COMPLETED, T0));
    store().save(WEATHER_ALICE, task("c-" + newId(), "ctx", TaskState.COMPLETED, T0));

    TaskStore.Page first = store().list(WEATHER_ALICE, all(1));
    assertThat(first.tasks().getFirst().id()).startsWith("c-");
    TaskStore.Page second = store().list(WEATHER_ALICE, from(5, first.next()));
    assertThat(second.tasks()).extracting(t -> t.id().substring(0, 2)).containsExactly("b-", "a-");
  }

  @Test
  void listingFiltersByContextStateAndStatusTime() {
    String old = newId();
    String working = newId();
    String other = newId();
    store().save(WEATHER_ALICE, task(old, "one", TaskState.COMPLETED, T0));
    store().save(WEATHER_ALICE, task(working, "one", TaskState.WORKING, T0.plusSeconds(10)));
    store().save(WEATHER_ALICE, task(other, "two", TaskState.COMPLETED, T0.plusSeconds(20)));

    assertThat(
            store()
                .list(
                    WEATHER_ALICE,
                    new TaskStore.Query(
                        Optional.of("one"),
                        Optional.empty(),
                        Optional.empty(),
                        10,
                        Optional.empty()))
                .tasks())
        .extracting(Task::id)
        .containsExactly(working, old);
    assertThat(
            store()
                .list(
                    WEATHER_ALICE,
                    new TaskStore.Query(
                        Optional.empty(),
                        Optional.of(TaskState.COMPLETED),
                        Optional.empty(),
                        10,
                        Optional.empty()))
                .tasks())
        .extracting(Task::id)
        .containsExactly(other, old);
    TaskStore.Page recent =
        store()
            .list(
                WEATHER_ALICE,
                new TaskStore.Query(
                    Optional.empty(),
                    Optional.empty(),
                    Optional.of(T0.plusSeconds(10)),
                    10,
                    Optional.empty()));
    assertThat(recent.tasks()).extracting(Task::id).containsExactly(other);
    assertThat(recent.totalSize()).isEqualTo(1);
  }

  @Test
  void aConversationsTasksComeInTheOrderTheyWereCreated() {
    String first = "z-" + newId();
    String second = "a-" + newId();
    store().save(WEATHER_ALICE, task(first, "talk", TaskState.COMPLETED, T0.plusSeconds(5)));
    store().save(WEATHER_ALICE, task(second, "talk", TaskState.COMPLETED, T0));
    store().save(WEATHER_BOB, task(newId(), "talk", TaskState.COMPLETED, T0));
    store().save(WEATHER_ALICE, task(newId(), "elsewhere", TaskState.COMPLETED, T0));

    assertThat(store().context(WEATHER_ALICE, "talk"))
        .extracting(Task::id)
        .containsExactly(first, second);
  }

  @Test
  void pushConfigsAreKeptPerTaskInTheOrderTheyWereMade() {
    String id = newId();
    store().save(WEATHER_ALICE, task(id, "ctx", TaskState.WORKING, T0));
    PushConfig second =
        new PushConfig(
            "z-second",
            id,
            "https://hooks.example.com/b",
            Optional.empty(),
            Optional.of(new PushConfig.Authentication("Bearer", "cred")));
    PushConfig first =
        new PushConfig(
            "a-first", id, "https://hooks.example.com/a", Optional.of("tok"), Optional.empty());
    store().savePushConfig(WEATHER_ALICE, second);
    store().savePushConfig(WEATHER_ALICE, first);

    assertThat(store().pushConfigs(WEATHER_ALICE, id)).containsExactly(second, first);
    assertThat(store().pushConfigs(WEATHER_BOB, id)).isEmpty();
    assertThat(store().deletePushConfig(WEATHER_BOB, id, "a-first")).isFalse();
    assertThat(store().deletePushConfig(WEATHER_ALICE, id, "a-first")).isTrue();
    assertThat(store().deletePushConfig(WEATHER_ALICE, id, "a-first")).isFalse();
    assertThat(store().pushConfigs(WEATHER_ALICE, id)).containsExactly(second);
  }

  @Test
  void aPushConfigForATaskOutsideTheScopeIsNotKept() {
    String id = newId();
    store().save(WEATHER_ALICE, task(id, "ctx", TaskState.WORKING, T0));
    store()
        .savePushConfig(
            WEATHER_BOB,
            new PushConfig(
                "c", id, "https://hooks.example.com", Optional.empty(), Optional.empty()));

    assertThat(store().pushConfigs(WEATHER_ALICE, id)).isEmpty();
    assertThat(store().pushConfigs(WEATHER_BOB, id)).isEmpty();
  }

  @Test
  void aMessageIdIsClaimedOncePerAgentAndPrincipal() {
    String first = newId();
    assertThat(store().claimMessage(WEATHER_ALICE, "m-1", first)).isEmpty();
    assertThat(store().claimMessage(WEATHER_ALICE, "m-1", newId())).contains(first);
    assertThat(store().claimMessage(WEATHER_BOB, "m-1", newId()))
        .as("another principal's id of the same text is theirs")
        .isEmpty();
    assertThat(store().claimMessage(CHAT_ALICE, "m-1", newId())).isEmpty();
    String longest = "é".repeat(512);
    String holder = newId();
    assertThat(store().claimMessage(WEATHER_ALICE, longest, holder)).isEmpty();
    assertThat(store().claimMessage(WEATHER_ALICE, longest, newId())).contains(holder);
  }

  @Test
  void onlyTheHolderReleasesAClaimAndThenItCanBeTakenAgain() {
    String first = newId();
    store().claimMessage(WEATHER_ALICE, "m-2", first);
    store().releaseMessage(WEATHER_ALICE, "m-2", newId());
    store().releaseMessage(WEATHER_BOB, "m-2", first);
    assertThat(store().claimMessage(WEATHER_ALICE, "m-2", newId())).contains(first);

    store().releaseMessage(WEATHER_ALICE, "m-2", first);
    String second = newId();
    assertThat(store().claimMessage(WEATHER_ALICE, "m-2", second)).isEmpty();
    assertThat(store().claimMessage(WEATHER_ALICE, "m-2", newId())).contains(second);
  }

  @Test
  void claimsOfOneMessageIdAtOnceHaveOneWinner() throws Exception {
    int claimants = 16;
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Optional<String>>> claims = new ArrayList<>();
    List<String> taskIds = new ArrayList<>();
    try (var threads = Executors.newFixedThreadPool(claimants)) {
      for (int i = 0; i < claimants; i++) {
        String taskId = newId();
        taskIds.add(taskId);
        claims.add(
            threads.submit(() -> {
              go.await();
              return store().claimMessage(WEATHER_ALICE, "m-burst", taskId);
            }));
      }
      go.countDown();
      List<String> winners = new ArrayList<>();
      Set<String> answered = new HashSet<>();
      for (int i = 0; i < claimants; i++) {
        Optional<String> claim = claims.get(i).get();
        if (claim.isEmpty()) {
          winners.add(taskIds.get(i));
        } else {
          answered.add(claim.get());
        }
      }
      assertThat(winners).hasSize(1);
      assertThat(answered).containsExactly(winners.getFirst());
    }
  }
}
