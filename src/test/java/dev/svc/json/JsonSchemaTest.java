package dev.svc.json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class JsonSchemaTest {
  private static JsonSchema compile(String schema) {
    return switch (JsonSchema.compile(Json.MAPPER.readTree(schema))) {
      case JsonSchema.Valid valid -> valid.schema();
      case JsonSchema.Refused refused -> throw new AssertionError(refused.message());
    };
  }

  @Test
  void aValueNestedDeeperThanJsonReadingAllowsIsRefusedWithoutRecursing() {
    JsonSchema schema = compile("{\"type\":\"object\",\"properties\":{\"n\":{\"$ref\":\"#\"}}}");
    ObjectNode root = Json.NODES.objectNode();
    ObjectNode level = root;
    for (int i = 0; i < 100_000; i++) { // only code builds such a value: the reader stops at 500
      level = level.putObject("n");
    }
    assertThat(schema.problems(root))
        .containsExactly(
            new JsonSchema.Problem("", "", "", "the value is nested deeper than 500 levels"));
    assertThat(JsonSchema.depth(Json.MAPPER.readTree("{\"a\":[{}]}"))).isEqualTo(3);
    assertThat(JsonSchema.depth(Json.NODES.stringNode("x"))).isZero();
  }

  @Test
  void aNumberBeyondALongAgainstAnIntegralBoundIsAProblemNotAnException() {
    // the validator compares it as a long, which Jackson 3 refuses to make (found by the fuzzer)
    JsonSchema schema =
        compile(
            "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\",\"minimum\":0},"
                + "\"m\":{\"maximum\":10}}}");
    for (String value : new String[] {"{\"n\":1e19}", "{\"n\":-1e300}", "{\"n\":1e308}"}) {
      assertThat(schema.problems(Json.MAPPER.readTree(value)))
          .as(value)
          .singleElement()
          .satisfies(problem -> {
            assertThat(problem.location()).isIn("/n", "/m");
            assertThat(problem.message()).contains("beyond ±9223372036854775807");
          });
    }
    assertThat(schema.problems(Json.MAPPER.readTree("{\"n\":9007199254740993,\"m\":3}"))).isEmpty();
    assertThat(schema.problems(Json.MAPPER.readTree("{\"n\":-1}"))).hasSize(1);
    assertThat(schema.problems(Json.MAPPER.readTree("{\"m\":1e308}")))
        .extracting(JsonSchema.Problem::message)
        .containsExactly("must have a maximum value of 10");
  }

  @Test
  void aPatternThatBacktracksForeverIsStoppedAndTheValueRefused() {
    JsonSchema schema = compile("{\"type\":\"string\",\"pattern\":\"^(.*a){12}$\"}");
    assertThat(schema.problems(Json.NODES.stringNode("a".repeat(60) + "!")))
        .extracting(JsonSchema.Problem::message)
        .containsExactly("the value takes too long to match the `pattern`s of the schema");
    assertThat(schema.problems(Json.NODES.stringNode("a".repeat(12)))).isEmpty();
  }

  @Test
  void thePatternsOfOneCheckShareOneBudgetOfSteps() {
    // each item costs its pattern ~1.5 million steps and then passes the other branch: under a
    // budget of its own each, 10,000 of them took minutes of a core
    JsonSchema schema =
        compile(
            "{\"type\":\"array\",\"items\":{\"anyOf\":["
                + "{\"type\":\"string\",\"pattern\":\"^(.*a){12}$\"},{\"type\":\"string\"}]}}");
    ArrayNode items = Json.NODES.arrayNode();
    for (int i = 0; i < 10_000; i++) {
      items.add("a".repeat(18) + "b");
    }
    assertThat(schema.problems(items))
        .extracting(JsonSchema.Problem::message)
        .containsExactly("the value takes too long to match the `pattern`s of the schema");
    assertThat(schema.problems(Json.NODES.arrayNode().add("a".repeat(18) + "b"))).isEmpty();
  }

  @Test
  void aSmallValueGetsEveryProblemALargeOneItsFirst() {
    JsonSchema schema = compile("{\"type\":\"array\",\"items\":{\"type\":\"string\"}}");
    ArrayNode few = Json.NODES.arrayNode().add(1).add("ok").add(2);
    assertThat(schema.problems(few))
        .extracting(JsonSchema.Problem::location)
        .containsExactly("/0", "/2");
    ArrayNode many = Json.NODES.arrayNode();
    for (int i = 0; i < 1_000_000; i++) {
      many.add(i); // a million problems: listing them all held ~600 MB
    }
    assertThat(schema.problems(many))
        .extracting(JsonSchema.Problem::location)
        .containsExactly("/0");
    assertThat(JsonSchema.parts(many, 1_001)).isEqualTo(1_001);
    assertThat(JsonSchema.parts(few, 1_001)).isEqualTo(4);
  }

  @Test
  void patternsAreUnanchoredAsInEcmaScript() {
    JsonSchema schema = compile("{\"type\":\"string\",\"pattern\":\"b+\"}");
    assertThat(schema.problems(Json.NODES.stringNode("abbc"))).isEmpty();
    assertThat(schema.problems(Json.NODES.stringNode("ac"))).hasSize(1);
  }

  @Test
  void aSchemaThatCannotCompileIsRefusedWithTheReason() {
    assertThat(JsonSchema.compile(Json.MAPPER.readTree("{\"$ref\":\"#/$defs/missing\"}")))
        .isInstanceOf(JsonSchema.Refused.class);
    assertThat(
            JsonSchema.compile(Json.MAPPER.readTree("{\"$ref\":\"https://example.com/s.json\"}")))
        .isInstanceOf(JsonSchema.Refused.class);
  }

  @Test
  void aSchemaCompiledAgainWithTheSameIdsGetsItsOwnDefinitionsNotTheFirstOnes() {
    String template =
        "{\"type\":\"object\",\"$defs\":{\"n\":{\"$id\":\"https://example.com/n\","
            + "\"type\":\"%s\"}},\"properties\":{\"v\":{\"$ref\":\"https://example.com/n\"}}}";
    JsonSchema before = compile(template.formatted("string"));
    JsonSchema after = compile(template.formatted("integer")); // the project reloaded
    JsonNode text = Json.MAPPER.readTree("{\"v\":\"x\"}");
    assertThat(before.problems(text)).isEmpty();
    assertThat(after.problems(text)).hasSize(1);
  }
}
