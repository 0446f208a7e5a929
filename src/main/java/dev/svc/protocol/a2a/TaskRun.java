package dev.svc.protocol.a2a;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A task running in this process: its current state, the streams subscribed to it, and the thread
 * running its agent. Every change goes through {@link #publish}, under this object's lock, so
 * subscribers see the events in order and a subscriber that joins gets the task as it is at that
 * moment followed by every later event, none twice.
 */
final class TaskRun {
  private final String agent;
  private final Clock clock;
  private final Changes changes;
  private final List<Subscription> subscribers = new CopyOnWriteArrayList<>();

  /**
   * The most events one subscriber may have waiting: a stream whose client stopped reading is
   * dropped there (its stream ends; {@code SubscribeToTask} starts it again from the task as it
   * is), rather than queue a task's whole output for it.
   */
  static final int MAX_QUEUED_EVENTS = 4096;

  private final CountDownLatch finished = new CountDownLatch(1);
  private final String artifactId = UUID.randomUUID().toString();
  private final StringBuilder streamed = new StringBuilder();

  /**
   * Whether {@link #streamed} holds text the task's artifact does not have yet: the artifact is
   * caught up when someone looks at the task, not at every chunk. Rebuilding it at every chunk
   * copied the whole answer so far each time, quadratic in its length: a 1 MB answer in 4-character
   * chunks copied 125 GB under this run's lock.
   */
  private boolean artifactBehind;

  private Task task;
  private Thread thread;
  private String pendingChunk;
  private boolean chunkSent;
  private long seq;

  /** What a run tells its owner, under the run's lock, so in the order things happened. */
  interface Changes {
    /**
     * After each status change: saves the task and queues push notifications.
     *
     * @param seq how many events the task has had, this change's included
     */
    void statusChanged(Task task, long seq);

    /** Each event, numbered from 1 (a shared store appends it to the task's history). */
    default void published(long seq, StreamResponse event) {}
  }

  TaskRun(String agent, Task task, Clock clock, Changes changes) {
    this.agent = agent;
    this.task = task;
    this.clock = clock;
    this.changes = changes;
  }

  String agent() {
    return agent;
  }

  String id() {
    return task.id();
  }

  synchronized Task task() {
    catchUp();
    return task;
  }

  /** Gives the task's artifact the text streamed so far, if it lacks some. */
  private void catchUp() {
    if (artifactBehind) {
      task = task.withArtifacts(List.of(artifact(streamed.toString())));
      artifactBehind = false;
    }
  }

  /**
   * Tells the run which thread runs its agent, so a cancel interrupts it: false when the task has
   * already ended (canceled before its thread began), and the thread has nothing to do.
   */
  synchronized boolean runsOn(Thread thread) {
    this.thread = thread;
    return !task.status().state().isTerminal();
  }

  /** Subscribes a stream: the task as it is now, then every later event in a queue. */
  synchronized Subscription subscribe() {
    catchUp();
    Subscription subscription =
        new Subscription(task, new LinkedBlockingQueue<>(MAX_QUEUED_EVENTS), new AtomicBoolean());
    if (!task.status().state().isTerminal()) {
      subscribers.add(subscription);
    }
    return subscription;
  }

  void unsubscribe(Subscription subscription) {
    subscribers.remove(subscription);
  }

  /**
   * The task's state when a stream subscribed, and the events after it.
   *
   * @param dropped set when the subscriber fell {@link #MAX_QUEUED_EVENTS} behind and was let go
   */
  record Subscription(Task snapshot, BlockingQueue<StreamResponse> events, AtomicBoolean dropped) {}

  /** Moves the task to a new state; false when it had already ended (e.g. it was canceled). */
  synchronized boolean status(TaskState state, Optional<Message> message) {
    if (task.status().state().isTerminal()) {
      return false;
    }
    catchUp();
    TaskStatus status = new TaskStatus(state, message, clock.instant());
    List<Message> history = task.history();
    if (message.isPresent() && state.isTerminal()) {
      history = new ArrayList<>(history);
      history.add(message.get());
    }
    task = task.withStatus(status).withHistory(history);
    // saved before its event is published: whoever sees the event (a stream here or on another
    // instance) and then asks for the task reads this state, not the one before
    changes.statusChanged(task, seq + 1);
    publish(new StreamResponse.StatusUpdate(task.id(), task.contextId(), status));
    if (state.isTerminal()) {
      subscribers.clear();
      finished.countDown();
    }
    return true;
  }

  /** A piece of streamed answer text: sent one event late, so the last one can say so. */
  synchronized void chunk(String text) {
    if (task.status().state().isTerminal() || text.isEmpty()) {
      return;
    }
    if (pendingChunk != null) {
      sendChunk(pendingChunk, false);
    }
    pendingChunk = text;
  }

  /**
   * The complete answer: sends the last streamed chunk (marked {@code lastChunk}), or the whole
   * artifact when nothing was streamed. The stored artifact is the whole answer either way.
   */
  synchronized void answer(String text) {
    if (task.status().state().isTerminal()) {
      return;
    }
    if (pendingChunk != null) {
      sendChunk(pendingChunk, true);
      pendingChunk = null;
    } else {
      publish(
          new StreamResponse.ArtifactUpdate(
              task.id(), task.contextId(), artifact(text), false, true));
    }
    task = task.withArtifacts(List.of(artifact(text)));
    artifactBehind = false;
  }

  private void sendChunk(String text, boolean last) {
    streamed.append(text);
    artifactBehind = true;
    publish(
        new StreamResponse.ArtifactUpdate(
            task.id(), task.contextId(), artifact(text), chunkSent, last));
    chunkSent = true;
  }

  private Artifact artifact(String text) {
    return Artifact.text(artifactId, "answer", text);
  }

  private void publish(StreamResponse event) {
    seq++;
    for (Subscription subscriber : subscribers) {
      if (!subscriber.events().offer(event)) {
        subscribers.remove(subscriber);
        subscriber.dropped().set(true);
        subscriber.events().clear();
      }
    }
    changes.published(seq, event);
  }

  /** Ends the task as canceled and interrupts its agent; false when it had already ended. */
  boolean cancel() {
    Thread running;
    synchronized (this) {
      if (!status(TaskState.CANCELED, Optional.empty())) {
        return false;
      }
      running = thread;
    }
    if (running != null) {
      running.interrupt();
    }
    return true;
  }

  /** Waits until the task has ended. */
  void awaitEnd() throws InterruptedException {
    finished.await();
  }

  boolean hasEnded() {
    return finished.getCount() == 0;
  }
}
