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

  @Test
  void aPlaceholderInJavaScriptMongoDbRunsIsRefused() {
    String[] commands = {
      "{\"find\": \"u\", \"filter\": {\"$where\": \"this.name == '{{ inputs.name }}'\"}}",
      "{\"find\": \"u\", \"filter\": {\"$where\": {{ inputs.name }}}}",
      "{\"find\": \"u\", \"filter\": {\"$and\": [{\"$where\": {\"$code\":"
          + " \"f({{ auth.claims.sub }})\"}}]}}",
      "{\"aggregate\": \"u\", \"cursor\": {}, \"pipeline\": [{\"$match\": {\"$expr\":"
          + " {\"$function\": {\"body\": \"function(n) { return n == '{{ inputs.name }}' }\","
          + " \"args\": [\"$name\"], \"lang\": \"js\"}}}}]}",
      "{\"aggregate\": \"u\", \"cursor\": {}, \"pipeline\": [{\"$group\": {\"_id\": 1,"
          + " \"x\": {\"$accumulator\": {\"init\": \"function() { return {{ inputs.n }} }\","
          + " \"accumulate\": \"function(s) { return s }\", \"accumulateArgs\": [],"
          + " \"merge\": \"function(a) { return a }\", \"lang\": \"js\"}}}}]}",
      "{\"mapReduce\": \"u\", \"map\": \"function() { emit('{{ inputs.name }}', 1) }\","
          + " \"reduce\": \"function(k, v) { return 1 }\", \"out\": {\"inline\": 1}}",
    };
    for (String command : commands) {
      assertThat(compile("{\"database\": \"shop\", \"command\": " + command + "}"))
          .as(command)
          .isEmpty();
    }
    assertThat(diagnostics.sorted())
        .extracting(Diagnostic::message)
        .allMatch(m ->
            m.endsWith(
                "would be spliced into JavaScript that MongoDB runs, not bound" + " as a value"))
        .extracting(m -> m.substring(0, m.indexOf(" would")))
        .containsExactlyInAnyOrder( // the same diagnostic at the same place is reported once
            "a placeholder in `$where`",
            "a placeholder in the `body` of `$function`",
            "a placeholder in the `init` function of `$accumulator`",
            "a placeholder in the `map` function of `mapReduce`");
  }

  @Test
  void valuesGivenToJavaScriptAsDataAreBound() {
    // $function's args and $accumulator's argument lists are data, and a filter beside $where too
    assertThat(
            compile(
                "{\"database\": \"shop\", \"command\": {\"aggregate\": \"u\", \"cursor\": {},"
                    + " \"pipeline\": [{\"$match\": {\"name\": {{ inputs.name }}, \"$expr\":"
                    + " {\"$function\": {\"body\": \"function(a, b) { return a == b }\","
                    + " \"args\": [\"$name\", {{ inputs.name }}], \"lang\": \"js\"}}}}]}}"))
        .isPresent();
    assertThat(
            compile(
                "{\"database\": \"shop\", \"command\": {\"find\": \"u\", \"filter\":"
                    + " {\"$where\": \"this.a > this.b\", \"owner\": \"{{ inputs.name }}\"}}}"))
        .isPresent();
    assertThat(diagnostics.sorted()).isEmpty();
  }

  @Test
  void aPlaceholderCannotNameTheDatabaseOrWhatTheCommandActsOn() {
    assertThat(compile("{\"database\": \"{{ inputs.db }}\", \"command\": {\"find\": \"u\"}}"))
        .isEmpty();
    assertThat(compile("{\"database\": \"shop\", \"command\": {\"find\": \"{{ inputs.c }}\"}}"))
        .isEmpty();
    assertThat(compile("{\"database\": \"shop\", \"command\": {\"getMore\": {{ inputs.id }}}}"))
        .isEmpty();

    assertThat(diagnostics.sorted())
        .extracting(Diagnostic::message)
        .containsExactlyInAnyOrder(
            "a placeholder cannot name the database",
            "a placeholder cannot name what the command acts on (the value of `find`)",
            "a placeholder cannot name what the command acts on (the value of `getMore`)");
  }

  @Test
  void aPlaceholderCannotNameTheCollectionAStageReadsOrWrites() {
    String[] stages = {
      "{\"$lookup\": {\"from\": \"{{ inputs.c }}\", \"localField\": \"a\", \"foreignField\":"
          + " \"b\", \"as\": \"x\"}}",
      "{\"$graphLookup\": {\"from\": \"p{{ inputs.c }}\", \"startWith\": \"$a\","
          + " \"connectFromField\": \"a\", \"connectToField\": \"b\", \"as\": \"x\"}}",
      "{\"$unionWith\": \"{{ inputs.c }}\"}",
      "{\"$unionWith\": {\"coll\": \"{{ inputs.c }}\", \"pipeline\": []}}",
      "{\"$out\": \"{{ inputs.c }}\"}",
      "{\"$out\": {\"db\": \"{{ inputs.db }}\", \"coll\": \"copy\"}}",
      "{\"$merge\": {\"into\": {\"db\": \"shop\", \"coll\": \"{{ inputs.c }}\"}}}",
      "{\"$facet\": {\"a\": [{\"$lookup\": {\"from\": \"{{ inputs.c }}\", \"as\": \"x\","
          + " \"pipeline\": []}}]}}",
    };
    for (String stage : stages) {
      assertThat(
              compile(
                  "{\"database\": \"shop\", \"command\": {\"aggregate\": \"u\", \"cursor\":"
                      + " {}, \"pipeline\": [{\"$match\": {\"a\": 1}}, "
                      + stage
                      + "]}}"))
          .as(stage)
          .isEmpty();
    }
    assertThat(diagnostics.sorted())
        .extracting(Diagnostic::message)
        .containsOnly(
            "a placeholder cannot name the collection of `$lookup`",
            "a placeholder cannot name the collection of `$graphLookup`",
            "a placeholder cannot name the collection of `$unionWith`",
            "a placeholder cannot name the collection of `$out`",
            "a placeholder cannot name the collection of `$merge`");
  }

  @Test
  void valuesInsideAStageThatReadsAnotherCollectionAreBound() {
    assertThat(
            compile(
                "{\"database\": \"shop\", \"command\": {\"aggregate\": \"u\", \"cursor\": {},"
                    + " \"pipeline\": [{\"$lookup\": {\"from\": \"orders\", \"as\": \"x\","
                    + " \"pipeline\": [{\"$match\": {\"owner\": {{ inputs.name }}}}]}}]}}"))
        .isPresent();
    assertThat(diagnostics.sorted()).isEmpty();
  }

  @Test
  void aVerifiedClaimMayNameTheDatabaseOrACollection() {
    // the server, not the caller, chooses a claim's value: a database per tenant
    assertThat(
            compile(
                "{\"database\": \"{{ auth.claims.tenant }}\", \"command\": {\"aggregate\":"
                    + " \"t_{{ auth.claims.tenant }}\", \"cursor\": {}, \"pipeline\": [{\"$lookup\":"
                    + " {\"from\": \"{{ auth.claims.tenant }}_orders\", \"as\": \"o\","
                    + " \"pipeline\": []}}]}}"))
        .isPresent();
    assertThat(diagnostics.sorted()).isEmpty();
    // in JavaScript a claim is refused like an input: it would be spliced into code
    assertThat(
            compile(
                "{\"database\": \"d\", \"command\": {\"find\": \"u\", \"filter\": {\"$where\":"
                    + " \"this.t == '{{ auth.claims.tenant }}'\"}}}"))
        .isEmpty();
  }
}
