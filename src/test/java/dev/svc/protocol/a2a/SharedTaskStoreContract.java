package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.TcpProxy;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a store several instances share does beyond {@link TaskStoreContract}: each test opens two
 * stores on the same database, as two instances would.
 */
abstract class SharedTaskStoreContract extends TaskStoreContract {
  private TaskStore first;

  /** Another instance's store on the same database as {@link #store()}. */
  abstract TaskStore open(SharedTasks.Settings settings);

  /** Another instance's store on the same database, reached through {@code proxy}. */
  abstract TaskStore openThrough(TcpProxy proxy);

  /** Where {@link #openThrough} proxies to: the database server's host and port. */
  abstract InetSocketAddress server();

  private Set<Thread> listenersBefore;

  /**
   * Synchronized: tests call it from several threads at once (16 claimants), and each that saw no
   * store yet opened one, of which only the last was kept and closed; the others' listeners
   * reconnected every 5 s for the rest of the run, to a database dropped long before.
   */
  @Override
  synchronized TaskStore store() {
    if (first == null) {
      first = open(SharedTasks.Settings.DEFAULTS);
    }
    return first;
  }

  @BeforeEach
  void noteListeners() {
    listenersBefore = listeners();
  }

  /** Closes the first store, then checks that every store the test opened stopped listening. */
  @AfterEach
  synchronized void closeFirst() throws InterruptedException {
    if (first != null) {
      first.close();
      first = null;
    }
    Set<Thread> left = listeners();
    left.removeAll(listenersBefore);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
      left.removeIf(t -> !t.isAlive());
    }
    assertThat(left)
        .as(() -> {
          StringBuilder where = new StringBuilder("listeners of stores this test opened and");
          where.append(" did not close (or that did not stop when closed), at:");
          for (Thread t : left) {
            for (StackTraceElement e : t.getStackTrace()) {
              where.append("\n  at ").append(e);
            }
            where.append("\n");
          }
          return where.toString();
        })
        .isEmpty();
  }

  private static Set<Thread> listeners() {
    Set<Thread> listening = new HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("svc-a2a-listen") && t.isAlive()) {
        listening.add(t);
      }
    }
    return listening;
  }

  static SharedTasks shared(TaskStore store) {
    return store.shared().orElseThrow();
  }

  static StreamResponse.StatusUpdate status(Task task, TaskState state) {
    return new StreamResponse.StatusUpdate(task.id(), task.contextId(), TaskStatus.of(state, T0));
  }

  /** A finished task whose message is {@code chars} characters. */
  static Task big(String context, Instant at, int chars) {
    return task(newId(), context, TaskState.COMPLETED, at, "x".repeat(chars));
  }

  @Test
  void aStoreClosedWhileItsListenerConnectsStopsListening() throws Exception {
    // closeFirst checks that no listener of these stores remains; before, about one Redis store in
    // a few hundred, closed while its listener subscribed, stayed subscribed for good (a race:
    // 400 closes, each a little later after opening, to meet it)
    for (int i = 0; i < 400; i++) {
      TaskStore store = open(SharedTasks.Settings.DEFAULTS);
      try {
        Thread.sleep(Duration.ofNanos((i % 20) * 200_000L));
      } finally {
        store.close();
      }
    }
  }

  @Test
  void aPageOfLargeTasksEndsAtTheReadBudgetAndTheNextGoesOn() {
    List<String> newestFirst = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Task task = big("ctx", T0.plusSeconds(i), 1_500_000);
      store().save(WEATHER_ALICE, task);
      newestFirst.addFirst(task.id());
    }

    TaskStore.Page first = store().list(WEATHER_ALICE, all(100));

    assertThat(first.tasks())
        .extracting(Task::id)
        .containsExactlyElementsOf(newestFirst.subList(0, 3));
    assertThat(first.totalSize()).isEqualTo(5);
    TaskStore.Page second = store().list(WEATHER_ALICE, from(100, first.next()));
    assertThat(second.tasks())
        .extracting(Task::id)
        .containsExactlyElementsOf(newestFirst.subList(3, 5));
    assertThat(second.next()).isEmpty();
  }

  @Test
  void aConversationOfLargeTasksIsReadFromItsLatestUpToTheBudget() {
    List<String> created = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Task task = big("long", T0.plusSeconds(i), 1_500_000);
      store().save(WEATHER_ALICE, task);
      created.add(task.id());
    }

    assertThat(store().context(WEATHER_ALICE, "long"))
        .extracting(Task::id)
        .containsExactlyElementsOf(created.subList(2, 5));
  }

  @Test
  void eventsAreReplayedInOrderAfterTheSnapshotTheyFollow() {
    SharedTasks a = shared(store());
    Task task = task(newId(), "ctx", TaskState.SUBMITTED, T0);
    assertThat(a.saveRun(WEATHER_ALICE, task, 0)).isTrue();
    a.append(task.id(), 1, status(task, TaskState.WORKING));
    Task working = task.withStatus(TaskStatus.of(TaskState.WORKING, T0));
    a.saveRun(WEATHER_ALICE, working, 1);
    a.append(
        task.id(),
        2,
        new StreamResponse.ArtifactUpdate(
            task.id(), "ctx", Artifact.text("x", "answer", "Sun"), false, false));
    a.append(task.id(), 3, status(task, TaskState.COMPLETED));

    try (TaskStore other = open(SharedTasks.Settings.DEFAULTS)) {
      SharedTasks b = shared(other);
      SharedTasks.Snapshot snapshot = b.snapshot(WEATHER_ALICE, task.id()).orElseThrow();
      assertThat(snapshot.task()).isEqualTo(working);
      assertThat(snapshot.seq()).isEqualTo(1);
      assertThat(snapshot.leased()).isTrue();
      List<SharedTasks.Event> after = b.events(task.id(), snapshot.seq());
      assertThat(after).extracting(SharedTasks.Event::seq).containsExactly(2L, 3L);
      assertThat(after.get(0).json().path("artifactUpdate").path("artifact").toString())
          .contains("Sun");
      assertThat(after.get(1).terminal()).isTrue();
      assertThat(b.snapshot(WEATHER_BOB, task.id())).isEmpty();
    }
  }

  @Test
  void aListenerOnAnotherInstanceIsWokenByEachNewEvent() throws Exception {
    Task task = task(newId(), "ctx", TaskState.WORKING, T0);
    shared(store()).saveRun(WEATHER_ALICE, task, 0);
    try (TaskStore other = open(SharedTasks.Settings.DEFAULTS)) {
      BlockingQueue<String> woken = new ArrayBlockingQueue<>(100);
      SharedTasks.Listening listening = shared(other).listen(task.id(), () -> woken.offer("e"));
      try {
        Thread.sleep(300); // the subscription is up
        woken.clear();
        shared(store()).append(task.id(), 1, status(task, TaskState.COMPLETED));
        assertThat(woken.poll(5, TimeUnit.SECONDS)).isEqualTo("e");
        assertThat(shared(other).events(task.id(), 0)).hasSize(1);
      } finally {
        listening.close();
      }
    }
  }

  @Test
  void aListenerWhoseConnectionDropsReconnectsAndIsWokenByTheNextEvent() throws Exception {
    Task task = task(newId(), "ctx", TaskState.WORKING, T0);
    shared(store()).saveRun(WEATHER_ALICE, task, 0);
    try (TcpProxy proxy = TcpProxy.to(server().getHostString(), server().getPort());
        TaskStore other = openThrough(proxy)) {
      BlockingQueue<String> woken = new ArrayBlockingQueue<>(100);
      SharedTasks.Listening listening = shared(other).listen(task.id(), () -> woken.offer("e"));
      try {
        Thread.sleep(300); // the subscription is up
        proxy.cut();
        shared(store()).append(task.id(), 1, status(task, TaskState.WORKING));
        proxy.resume();
        woken.clear();
        assertThat(woken.poll(10, TimeUnit.SECONDS))
            .as("the listener reconnects and wakes its listeners to read what they missed")
            .isEqualTo("e");
        assertThat(shared(other).events(task.id(), 0)).hasSize(1);
        woken.clear();
        shared(store()).append(task.id(), 2, status(task, TaskState.COMPLETED));
        assertThat(woken.poll(10, TimeUnit.SECONDS))
            .as("and is woken by the next event")
            .isEqualTo("e");
        assertThat(shared(other).events(task.id(), 0)).hasSize(2);
      } finally {
        listening.close();
      }
    }
  }

  @Test
  void aCancelRequestReachesTheInstanceThatRunsTheTask() throws Exception {
    BlockingQueue<String> requests = new ArrayBlockingQueue<>(10);
    shared(store()).onCancelRequest(requests::offer);
    try (TaskStore other = open(SharedTasks.Settings.DEFAULTS)) {
      Thread.sleep(300);
      shared(other).requestCancel("task-42");
      assertThat(requests.poll(5, TimeUnit.SECONDS)).isEqualTo("task-42");
    }
  }

  @Test
  void aTaskEndedByAnotherInstanceIsNotOverwrittenByItsRunner() {
    Task task = task(newId(), "ctx", TaskState.WORKING, T0);
    shared(store()).saveRun(WEATHER_ALICE, task, 1);
    try (TaskStore other = open(SharedTasks.Settings.DEFAULTS)) {
      Optional<Task> canceled =
          shared(other).end(WEATHER_ALICE, task.id(), TaskStatus.of(TaskState.CANCELED, T0), false);
      assertThat(canceled.orElseThrow().status().state()).isEqualTo(TaskState.CANCELED);
      assertThat(
              shared(other)
                  .end(WEATHER_ALICE, task.id(), TaskStatus.of(TaskState.CANCELED, T0), false))
          .as("ended once")
          .isEmpty();
    }
    boolean saved =
        shared(store())
            .saveRun(
                WEATHER_ALICE,
                task.withStatus(TaskStatus.of(TaskState.COMPLETED, T0.plusSeconds(1))),
                2);
    assertThat(saved).isFalse();
    assertThat(store().find(WEATHER_ALICE, task.id()).orElseThrow().status().state())
        .isEqualTo(TaskState.CANCELED);
    List<SharedTasks.Event> events = shared(store()).events(task.id(), 1);
    assertThat(events).hasSize(1);
    assertThat(events.getFirst().terminal()).isTrue();
  }

  @Test
  void aLeasedTaskIsNotEndedAsUnleased() {
    Task task = task(newId(), "ctx", TaskState.WORKING, T0);
    shared(store()).saveRun(WEATHER_ALICE, task, 0);
    assertThat(
            shared(store())
                .end(WEATHER_ALICE, task.id(), TaskStatus.of(TaskState.FAILED, T0), true))
        .isEmpty();
    assertThat(shared(store()).failExpired()).isZero();
  }

  @Test
  void aTaskWhoseInstanceStoppedIsMarkedFailedOnceItsLeaseExpires() throws Exception {
    SharedTasks.Settings shortLease =
        new SharedTasks.Settings(Duration.ofMillis(600), Duration.ofHours(1));
    Task task = task(newId(), "ctx", TaskState.WORKING, T0);
    TaskStore dying = open(shortLease);
    shared(dying).saveRun(WEATHER_ALICE, task, 3);
    dying.close(); // like a killed process: nothing renews its lease

    try (TaskStore survivor = open(shortLease)) {
      Instant deadline = Instant.now().plusSeconds(10);
      Task seen = survivor.find(WEATHER_ALICE, task.id()).orElseThrow();
      while (!seen.status().state().isTerminal() && Instant.now().isBefore(deadline)) {
        Thread.sleep(100); // the survivor's own housekeeping fails it
        seen = survivor.find(WEATHER_ALICE, task.id()).orElseThrow();
      }
      assertThat(seen.status().state()).isEqualTo(TaskState.FAILED);
      assertThat(MessageText.lenient(seen.status().message().orElseThrow()))
          .contains("lease expired");
      List<SharedTasks.Event> events = shared(survivor).events(task.id(), 0);
      assertThat(events.getLast().terminal()).isTrue();
      assertThat(
              events.getLast().json().path("statusUpdate").path("status").path("state").asString())
          .isEqualTo("TASK_STATE_FAILED");
    }
  }

  @Test
  void aTaskItsInstanceRenewsKeepsRunningPastTheLease() throws Exception {
    SharedTasks.Settings shortLease =
        new SharedTasks.Settings(Duration.ofMillis(600), Duration.ofHours(1));
    Task task = task(newId(), "ctx", TaskState.WORKING, T0);
    try (TaskStore runner = open(shortLease);
        TaskStore other = open(shortLease)) {
      shared(runner).saveRun(WEATHER_ALICE, task, 0);
      Thread.sleep(1_800);
      assertThat(shared(other).failExpired()).isZero();
      assertThat(other.find(WEATHER_ALICE, task.id()).orElseThrow().status().state())
          .isEqualTo(TaskState.WORKING);
    }
  }

  @Test
  void finishedTasksPastTheRetentionAreDeletedWithTheirEventsAndConfigs() throws Exception {
    try (TaskStore brief =
        open(new SharedTasks.Settings(Duration.ofSeconds(30), Duration.ofMillis(1)))) {
      Task done = task(newId(), "ctx", TaskState.COMPLETED, T0);
      Task running = task(newId(), "ctx", TaskState.WORKING, T0);
      brief.save(WEATHER_ALICE, done);
      brief.save(WEATHER_ALICE, running);
      brief.savePushConfig(
          WEATHER_ALICE,
          new PushConfig(
              "p", done.id(), "https://h.example.com", Optional.empty(), Optional.empty()));
      shared(brief).append(done.id(), 1, status(done, TaskState.COMPLETED));
      Thread.sleep(50);

      assertThat(shared(brief).deleteFinished()).isGreaterThanOrEqualTo(1);
      assertThat(brief.find(WEATHER_ALICE, done.id())).isEmpty();
      assertThat(brief.pushConfigs(WEATHER_ALICE, done.id())).isEmpty();
      assertThat(shared(brief).events(done.id(), 0)).isEmpty();
      assertThat(brief.find(WEATHER_ALICE, running.id())).isPresent();
      assertThat(brief.list(WEATHER_ALICE, all(10)).tasks())
          .extracting(Task::id)
          .containsExactly(running.id());
    }
  }

  static Instant now() {
    return Instant.now().truncatedTo(ChronoUnit.MILLIS);
  }

  @Test
  void twoInstancesClaimingOneMessageIdAtOnceHaveOneWinner() throws Exception {
    try (TaskStore other = open(SharedTasks.Settings.DEFAULTS)) {
      for (int round = 0; round < 20; round++) {
        String messageId = "m-" + round;
        String onFirst = newId();
        String onOther = newId();
        CountDownLatch go = new CountDownLatch(1);
        try (var threads = Executors.newFixedThreadPool(2)) {
          var a =
              threads.submit(() -> {
                go.await();
                return store().claimMessage(WEATHER_ALICE, messageId, onFirst);
              });
          var b =
              threads.submit(() -> {
                go.await();
                return other.claimMessage(WEATHER_ALICE, messageId, onOther);
              });
          go.countDown();
          Optional<String> first = a.get();
          Optional<String> second = b.get();
          assertThat(first.isEmpty()).isNotEqualTo(second.isEmpty());
          String winner = first.isEmpty() ? onFirst : onOther;
          assertThat(first.isEmpty() ? second : first)
              .as("the loser learns the winner")
              .contains(winner);
        }
      }
    }
  }
}
