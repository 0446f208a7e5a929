package dev.svc.protocol.a2a;

import dev.svc.agent.Turn;
import dev.svc.json.JsonFootprint;
import java.util.ArrayList;
import java.util.List;

/**
 * What a new task of a conversation tells the model before its own message: the messages of the
 * conversation's earlier completed tasks of the same principal, and what those turns weigh on the
 * heap while the task runs.
 */
final class ConversationTurns {
  /** At most this many earlier messages of a conversation are sent to the model. */
  static final int MAX_EARLIER_MESSAGES = 50;

  private ConversationTurns() {}

  /**
   * The messages of the conversation's completed tasks of this principal, as model turns (the
   * latest ones): another principal's tasks in a context of the same id are not part of it. Failed
   * and canceled tasks are left out: their question got no answer, and an error message is not a
   * turn the model said.
   */
  static List<Turn> earlier(TaskStore store, TaskStore.Scope scope, String contextId) {
    List<Turn> turns = new ArrayList<>();
    for (Task task : store.context(scope, contextId)) {
      if (task.status().state() != TaskState.COMPLETED) {
        continue;
      }
      for (Message message : task.history()) {
        String text = MessageText.lenient(message);
        if (text.isBlank()) {
          continue;
        }
        turns.add(message.role() == Role.AGENT ? Turn.Model.text(text) : new Turn.User(text));
      }
    }
    return turns.size() > MAX_EARLIER_MESSAGES
        ? List.copyOf(turns.subList(turns.size() - MAX_EARLIER_MESSAGES, turns.size()))
        : turns;
  }

  /** The estimated heap of a conversation's turns: their text and tool calls' JSON. */
  static long weight(List<Turn> conversation) {
    long bytes = 0;
    for (Turn turn : conversation) {
      bytes +=
          TaskWeight.MESSAGE
              + switch (turn) {
                case Turn.User user -> user.text().length();
                case Turn.Model model ->
                    model.text().length()
                        + model.toolCalls().stream()
                            .mapToLong(call -> JsonFootprint.of(call.arguments()))
                            .sum();
                case Turn.ToolResult result -> JsonFootprint.of(result.result());
              };
    }
    return bytes;
  }
}
