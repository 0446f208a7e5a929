package dev.svc.protocol.a2a;

import dev.svc.log.Log;
import dev.svc.protocol.jsonrpc.MethodReply;
import dev.svc.protocol.jsonrpc.ResultStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A task as a stream of results ({@code SendStreamingMessage}, {@code SubscribeToTask}): the task
 * as it was when the stream subscribed, then each event, keep-alives while idle, closed after the
 * terminal status. The subscription ends with the stream.
 */
final class TaskStream {
  private static final Log LOG = Log.tagged("a2a");

  private TaskStream() {}

  /**
   * A task another instance runs, followed through a shared store: the task as stored, the events
   * after it (those already made, then each as it comes), closed after the terminal status. A store
   * that fails ends the stream (and is logged); so does this instance's drain ({@code followers}),
   * after the task as stored.
   */
  static MethodReply.Stream shared(
      SharedTasks shared,
      TaskFollowers followers,
      TaskStore.Scope scope,
      String taskId,
      Duration keepAlive) {
    return new MethodReply.Stream(results -> {
      BlockingQueue<Boolean> changed = new LinkedBlockingQueue<>();
      followers.add(changed);
      SharedTasks.Listening listening = shared.listen(taskId, () -> changed.offer(true));
      try {
        follow(shared, followers, scope, taskId, results, changed, keepAlive.toMillis());
      } catch (TaskStoreException e) {
        LOG.warn(
            "task stream ended: the task store failed", "task", taskId, "error", e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        followers.remove(changed);
        listening.close();
      }
    });
  }

  private static void follow(
      SharedTasks shared,
      TaskFollowers followers,
      TaskStore.Scope scope,
      String taskId,
      ResultStream results,
      BlockingQueue<Boolean> changed,
      long keepAliveMillis)
      throws InterruptedException {
    Optional<SharedTasks.Snapshot> snapshot = shared.snapshot(scope, taskId);
    if (snapshot.isEmpty()) {
      return;
    }
    Task task = snapshot.get().task();
    if (!results.send(new StreamResponse.TaskEvent(task).toJson())
        || task.status().state().isTerminal()) {
      return;
    }
    long last = snapshot.get().seq();
    while (results.isOpen() && !followers.ending()) {
      List<SharedTasks.Event> events = shared.events(taskId, last);
      for (SharedTasks.Event event : events) {
        if (!results.send(event.json())) {
          return;
        }
        last = event.seq();
        if (event.terminal()) {
          return;
        }
      }
      if (!events.isEmpty()) {
        continue; // there may be more
      }
      if (changed.poll(keepAliveMillis, TimeUnit.MILLISECONDS) == null && !followers.ending()) {
        if (!results.keepAlive()) {
          return;
        }
        // a quiet while: make sure the task did not end (or vanish) without an event reaching us
        Optional<SharedTasks.Snapshot> now = shared.snapshot(scope, taskId);
        if (now.isEmpty()) {
          return;
        }
        Task current = now.get().task();
        if (current.status().state().isTerminal() && shared.events(taskId, last).isEmpty()) {
          results.send(
              new StreamResponse.StatusUpdate(current.id(), current.contextId(), current.status())
                  .toJson());
          return;
        }
      }
      changed.clear();
    }
  }

  /** An ended task: the task, and the stream closes. */
  static MethodReply.Stream ended(Task task) {
    return new MethodReply.Stream(
        results -> results.send(new StreamResponse.TaskEvent(task).toJson()));
  }

  static MethodReply.Stream of(AgentTasks.Started started, Duration keepAlive) {
    return new MethodReply.Stream(results -> {
      try {
        write(started.subscription(), results, keepAlive.toMillis());
      } finally {
        started.run().unsubscribe(started.subscription());
      }
    });
  }

  private static void write(
      TaskRun.Subscription subscription, ResultStream results, long keepAliveMillis) {
    Task snapshot = subscription.snapshot();
    if (!results.send(new StreamResponse.TaskEvent(snapshot).toJson())
        || snapshot.status().state().isTerminal()) {
      return;
    }
    try {
      while (results.isOpen() && !subscription.dropped().get()) {
        StreamResponse event = subscription.events().poll(keepAliveMillis, TimeUnit.MILLISECONDS);
        if (event == null) {
          if (!results.keepAlive()) {
            return;
          }
          continue;
        }
        if (!results.send(event.toJson())) {
          return;
        }
        if (event instanceof StreamResponse.StatusUpdate update
            && update.status().state().isTerminal()) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
