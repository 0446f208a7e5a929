package dev.svc.protocol.mcp;

import dev.svc.diagnostic.Suggestions;
import java.util.Collection;

/**
 * The error message of a request naming a tool, prompt or resource the server does not have, with
 * the closest name it does have: {@code Unknown tool: get_book; did you mean `get-book`?}. Every
 * name suggested is one the list methods show to any caller anyway.
 */
final class UnknownNames {
  private UnknownNames() {}

  /** {@code lead} is the message without a suggestion, e.g. {@code Unknown tool: get_book}. */
  static String message(String lead, String name, Collection<String> known) {
    return Suggestions.closest(name, known)
        .filter(closest -> !closest.equals(name))
        .map(closest -> lead + "; did you mean `" + closest + "`?")
        .orElse(lead);
  }
}
