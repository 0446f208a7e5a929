package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.Statement;
import dev.svc.model.Statement.Literal;
import dev.svc.model.Statement.Placeholder;
import dev.svc.model.Statement.Segment;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The Redis lexer: a command line split into arguments, each of literal text and placeholders. */
class RedisStatementCompilerTest {
  private final Diagnostics diagnostics = new Diagnostics();

  private Optional<Statement.Redis> compile(String source) {
    return RedisStatementCompiler.compile(StatementFixture.text(source, diagnostics));
  }

  private List<String> problems(String source) {
    assertThat(compile(source)).isEmpty();
    return diagnostics.sorted().stream().map(Diagnostic::message).toList();
  }

  @Test
  void argumentsAreSplitAtWhitespaceAndAPlaceholderStaysInsideItsArgument() {
    Statement.Redis redis =
        compile("  HSET  user:{{ inputs.id }}\tname {{inputs.name}} ").orElseThrow();

    assertThat(redis.arguments())
        .containsExactly(
            List.of(new Literal("HSET")),
            List.of(new Literal("user:"), new Placeholder("id", false)),
            List.of(new Literal("name")),
            List.of(new Placeholder("name", false)));
  }

  @Test
  void doubleQuotesKeepWhitespaceInOneArgumentAndTakeEscapes() {
    List<List<Segment>> arguments =
        compile("SET \"a b\\n\\\"{{ inputs.x }}\\\"\" \"\" x\"y z\"").orElseThrow().arguments();

    assertThat(arguments).hasSize(4);
    assertThat(arguments.get(1))
        .containsExactly(new Literal("a b\n\""), new Placeholder("x", true), new Literal("\""));
    assertThat(arguments.get(2)).as("\"\" is one empty argument").containsExactly(new Literal(""));
    assertThat(arguments.get(3)).containsExactly(new Literal("xy z"));
  }

  @Test
  void theCommandNameIsNeverAPlaceholder() {
    assertThat(problems("{{ inputs.command }} key"))
        .containsExactly("the Redis command name cannot be a placeholder");
  }

  @Test
  void anUnclosedQuoteIsRefused() {
    assertThat(problems("GET \"key"))
        .containsExactly("a double quote in the Redis command is never closed");
  }

  @Test
  void aCommandOfWhitespaceIsEmpty() {
    assertThat(problems(" \n ")).containsExactly("the Redis command is empty");
  }
}
