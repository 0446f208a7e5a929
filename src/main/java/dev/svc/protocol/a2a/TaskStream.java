package dev.svc.protocol.a2a;

import dev.svc.protocol.jsonrpc.MethodReply;
import dev.svc.protocol.jsonrpc.ResultStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A task as a stream of results ({@code SendStreamingMessage}, {@code SubscribeToTask}): the task
 * as it was when the stream subscribed, then each event, keep-alives while idle, closed after the
 * terminal status. The subscription ends with the stream.
 */
final class TaskStream {
  private TaskStream() {}

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
      while (results.isOpen()) {
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
