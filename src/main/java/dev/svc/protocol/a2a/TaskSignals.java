package dev.svc.protocol.a2a;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;

/**
 * What an instance hears from the others through a shared store's channel (PostgreSQL {@code
 * NOTIFY}, Redis pub/sub), and hands to its own listeners: {@code e <task id>}, the task has new
 * events; {@code c <task id>}, a cancel was asked for it. A signal carries only the id: the events
 * themselves are in the store, so a listener that missed signals catches up by reading them.
 */
final class TaskSignals {
  private final ConcurrentHashMap<String, Set<Runnable>> listeners = new ConcurrentHashMap<>();
  private volatile Consumer<String> cancelHandler = id -> {};

  /** The signal that {@code taskId} has new events. */
  static String changed(String taskId) {
    return "e " + taskId;
  }

  /** The signal that a cancel was asked for {@code taskId}. */
  static String cancel(String taskId) {
    return "c " + taskId;
  }

  /** Runs {@code changed} on every signal that {@code taskId} changed, until closed. */
  SharedTasks.Listening listen(String taskId, Runnable changed) {
    listeners.computeIfAbsent(taskId, id -> new CopyOnWriteArraySet<>()).add(changed);
    return () ->
        listeners.computeIfPresent(
            taskId,
            (id, set) -> {
              set.remove(changed);
              return set.isEmpty() ? null : set;
            });
  }

  void onCancelRequest(Consumer<String> handler) {
    this.cancelHandler = handler;
  }

  /** Hands a signal read from the channel to whom it concerns; anything else is ignored. */
  void dispatch(String payload) {
    if (payload.length() < 3) {
      return;
    }
    String taskId = payload.substring(2);
    switch (payload.charAt(0)) {
      case 'e' -> {
        Set<Runnable> set = listeners.get(taskId);
        if (set != null) {
          set.forEach(Runnable::run);
        }
      }
      case 'c' -> cancelHandler.accept(taskId);
      default -> {}
    }
  }

  /** Wakes every listener: after the channel was down, anything may have been missed. */
  void wakeAll() {
    listeners.values().forEach(set -> set.forEach(Runnable::run));
  }
}
