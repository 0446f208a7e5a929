package dev.svc.compile;

import dev.svc.model.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compiles a Redis statement, a command line: arguments are split at whitespace, double quotes keep
 * whitespace inside one argument, and inside them a backslash escapes the next character ({@code
 * \n} and {@code \t} are a newline and a tab). A placeholder stays inside its argument, so a value
 * can never add arguments; the command name cannot be one.
 */
final class RedisStatementCompiler {
  private RedisStatementCompiler() {}

  /** The compiled command; empty when a problem was reported. */
  static Optional<Statement.Redis> compile(StatementText statement) {
    String source = statement.source();
    List<List<Statement.Segment>> arguments = new ArrayList<>();
    int i = 0;
    int n = source.length();
    while (i < n) {
      while (i < n && Character.isWhitespace(source.charAt(i))) {
        i++;
      }
      if (i >= n) {
        break;
      }
      StatementText.Segments argument = new StatementText.Segments();
      boolean quoted = false;
      while (i < n && (quoted || !Character.isWhitespace(source.charAt(i)))) {
        char c = source.charAt(i);
        if (statement.opensPlaceholder(i)) {
          i = statement.readPlaceholder(i, argument, quoted);
          if (i < 0) {
            return Optional.empty();
          }
        } else if (c == '"') {
          quoted = !quoted;
          i++;
        } else if (quoted && c == '\\' && i + 1 < n) {
          char next = source.charAt(i + 1);
          argument.append(next == 'n' ? '\n' : next == 't' ? '\t' : next);
          i += 2;
        } else {
          argument.append(c);
          i++;
        }
      }
      if (quoted) {
        statement.error("invalid-statement", "a double quote in the Redis command is never closed");
        return Optional.empty();
      }
      // an argument written as "" is one empty argument
      arguments.add(argument.isEmpty() ? List.of(new Statement.Literal("")) : argument.build());
    }
    if (arguments.isEmpty()) {
      statement.error("invalid-statement", "the Redis command is empty");
      return Optional.empty();
    }
    if (arguments.getFirst().stream().anyMatch(s -> s instanceof Statement.Placeholder)) {
      statement.error(
          "invalid-placeholder",
          "the Redis command name cannot be a placeholder",
          "write the command (GET, HGETALL, …) literally; only its arguments take inputs");
      return Optional.empty();
    }
    return Optional.of(new Statement.Redis(source, arguments));
  }
}
