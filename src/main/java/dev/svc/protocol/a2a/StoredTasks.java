package dev.svc.protocol.a2a;

import dev.svc.json.Json;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** What the shared task stores (PostgreSQL, Redis) have in common: how a task is stored. */
final class StoredTasks {
  private StoredTasks() {}

  /** A task from its stored JSON body. */
  static Task task(String body) {
    return Task.fromJson(parse(body), "stored task");
  }

  static JsonNode parse(String body) {
    return Json.MAPPER.readTree(body);
  }

  static String json(JsonNode node) {
    return Json.MAPPER.writeValueAsString(node);
  }

  /** The task with a terminal status; the status's message joins the history, as a run does. */
  static Task ended(Task task, TaskStatus status) {
    List<Message> history = new ArrayList<>(task.history());
    status.message().ifPresent(history::add);
    return task.withStatus(status).withHistory(history);
  }

  /** The first line of a failure's message, as a log field or a message's tail shows it. */
  static String firstLine(Throwable e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
