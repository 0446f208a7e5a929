package dev.svc.protocol.a2a;

import dev.svc.call.ClientText;
import dev.svc.log.Log;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Tells a retried message from a new one. A2A v1 makes {@code Message.messageId} the identifier the
 * client gives its message; a client that lost the answer to {@code SendMessage} sends the same
 * message again. The first send of an id claims it for its task in the store ({@link
 * TaskStore#claimMessage}, atomic across instances); a later send of the same id by the same
 * principal to the same agent gets that task instead of starting another (and paying the model
 * again), and one with other content is refused. See docs/agents.md "Retries".
 */
final class ReceivedMessages {
  private static final Log LOG = Log.tagged("a2a");

  /** How long a second send waits for the first, between its claim and its task's first save. */
  static final Duration FIRST_SEND_WAIT = Duration.ofSeconds(5);

  private final TaskStore store;

  ReceivedMessages(TaskStore store) {
    this.store = store;
  }

  /**
   * Claims the message's id for {@code taskId}.
   *
   * @param find the task of an id as it is now (live when it runs here)
   * @param runsHere whether a task of an id runs in this process
   * @return empty when this send is the first of its id; else the task the first one started, once
   *     it is saved and (with a store of this process only) running or ended
   * @throws dev.svc.protocol.jsonrpc.JsonRpcException {@code -32602} when the earlier message with
   *     this id differs from this one, or its task was never saved
   */
  Optional<Task> claim(
      TaskStore.Scope scope,
      Message message,
      String taskId,
      Function<String, Optional<Task>> find,
      Predicate<String> runsHere) {
    long deadline = System.nanoTime() + FIRST_SEND_WAIT.toNanos();
    while (true) {
      Optional<String> first = store.claimMessage(scope, message.messageId(), taskId);
      if (first.isEmpty()) {
        return Optional.empty();
      }
      Optional<Task> task = find.apply(first.get());
      if (task.isPresent()
          && (task.get().status().state().isTerminal()
              || store.shared().isPresent()
              || runsHere.test(first.get()))) {
        return Optional.of(same(message, task.get()));
      }
      if (System.nanoTime() - deadline > 0) {
        throw A2aErrors.invalidParams(
            "message "
                + ClientText.shown(message.messageId())
                + " was received before, but its task was not created (the request that received"
                + " it failed); send it again with a new messageId");
      }
      try {
        Thread.sleep(10); // the first send is between its claim and its task's first save
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw A2aErrors.invalidParams(
            "interrupted while waiting for the first send of message "
                + ClientText.shown(message.messageId()));
      }
    }
  }

  /**
   * The task, when {@code message} is the one that started it: the same message placed in the same
   * task, naming the task's contextId or none (the first send may not have known it). The taskId it
   * names is not compared: the task's history holds the new task's id in its place.
   */
  private static Task same(Message message, Task task) {
    if (task.history().isEmpty()
        || !message
            .inTask(message.contextId().orElse(task.contextId()), task.id())
            .toJson()
            .equals(task.history().getFirst().toJson())) {
      throw A2aErrors.invalidParams(
          "messageId "
              + ClientText.shown(message.messageId())
              + " was already received with other content (it started task "
              + task.id()
              + "); a new message needs a new messageId");
    }
    return task;
  }

  /** Gives up the claim of a message whose task was not saved, so that a retry may start it. */
  void release(TaskStore.Scope scope, String messageId, String taskId) {
    try {
      store.releaseMessage(scope, messageId, taskId);
    } catch (TaskStoreException e) {
      // what failed the start is what the client hears; this claim ends with the retention
      LOG.warn("a message id was not released", "task", taskId, "error", e.getMessage());
    }
  }
}
