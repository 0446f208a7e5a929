package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.Statement;
import dev.svc.model.Statement.Literal;
import dev.svc.model.Statement.Placeholder;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The MongoDB lexer: JSON split into literal text and placeholders, values or string content. */
class MongoStatementCompilerTest {
  private final Diagnostics diagnostics = new Diagnostics();

  private Optional<Statement.Mongo> compile(String source) {
    return MongoStatementCompiler.compile(StatementFixture.text(source, diagnostics));
  }

  @Test
  void aPlaceholderStandingAsAValueIsAJsonValue() {
    Statement.Mongo mongo =
        compile(
                "{\"database\": \"shop\", \"command\": {\"count\": \"u\", \"skip\": {{ inputs.n }}}}")
            .orElseThrow();

    assertThat(mongo.segments())
        .containsExactly(
            new Literal("{\"database\": \"shop\", \"command\": {\"count\": \"u\", \"skip\": "),
            new Placeholder("n", false),
            new Literal("}}"));
  }

  @Test
  void aPlaceholderInsideAStringIsStringContentEvenAfterAnEscapedQuote() {
    Statement.Mongo mongo =
        compile(
                "{\"database\": \"shop\", \"command\": {\"find\": \"u\","
                    + " \"filter\": {\"name\": \"\\\"{{ inputs.name }}\"}}}")
            .orElseThrow();

    assertThat(mongo.segments()).contains(new Placeholder("name", true));
    assertThat(mongo.inputNames()).containsExactly("name");
    assertThat(diagnostics.sorted()).isEmpty();
  }

  @Test
  void aPlaceholderInAnObjectKeyIsRefused() {
    assertThat(
            compile(
                "{\"database\": \"shop\", \"command\": {\"find\": \"u\","
                    + " \"filter\": {\"{{ inputs.field }}\" : 1}}}"))
        .isEmpty();
    assertThat(diagnostics.sorted())
        .extracting(Diagnostic::message)
        .containsExactly("a placeholder cannot be part of an object key");
  }

  @Test
  void theJsonIsCheckedWithPlaceholdersAsDummyValues() {
    assertThat(compile("[{{ inputs.x }}]")).isEmpty();
    assertThat(compile("{\"command\": {}}")).isEmpty();

    assertThat(diagnostics.sorted())
        .extracting(Diagnostic::message)
        .containsExactly(
            "the MongoDB statement must be a JSON object",
            "the MongoDB statement needs a string field `database`",
            "the MongoDB statement needs an object field `command` whose first key is the command"
                + " name");
  }
}
