package dev.svc.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Each expectation against answers that satisfy it and answers that do not. */
class ExpectationTest {
  static JsonNode json(String text) {
    return Json.MAPPER.readTree(text);
  }

  static final Answer ROWS =
      Answer.success(
          json("[{\"id\":3,\"name\":\"dripper\",\"price\":29.0},{\"id\":4,\"name\":\"kettle\"}]"),
          false);
  static final Answer REFUSED = Answer.failure("input `id` must be an integer");

  @Test
  void resultComparesNumbersByValueAndKeysInAnyOrder() {
    var expected =
        new Expectation.Result(
            json("[{\"price\":29,\"name\":\"dripper\",\"id\":3},{\"name\":\"kettle\",\"id\":4}]"));

    assertThat(expected.check(ROWS)).isEmpty();
  }

  @Test
  void aDifferentResultIsShownAsALineDiff() {
    Mismatch mismatch = new Expectation.Result(json("[{\"id\":3}]")).check(ROWS).orElseThrow();

    assertThat(mismatch.message()).isEqualTo("the result differs");
    assertThat(mismatch.diff())
        .isEqualTo(
            """
              [ {
            -   "id" : 3
            +   "id" : 3,
            +   "name" : "dripper",
            +   "price" : 29.0
            + }, {
            +   "id" : 4,
            +   "name" : "kettle"
              } ]
            """);
  }

  @Test
  void rowsContainNeedsEachRowMatchedAndShowsTheClosestRowOtherwise() {
    assertThat(new Expectation.RowsContain(List.of(json("{\"name\":\"kettle\"}"))).check(ROWS))
        .isEmpty();

    Mismatch mismatch =
        new Expectation.RowsContain(List.of(json("{\"id\":4,\"name\":\"grinder\"}")))
            .check(ROWS)
            .orElseThrow();

    assertThat(mismatch.message())
        .isEqualTo(
            "no row matches {\"id\":4,\"name\":\"grinder\"}; the closest row, in its fields:");
    assertThat(mismatch.diff())
        .isEqualTo(
            """
              {
                "id" : 4,
            -   "name" : "grinder"
            +   "name" : "kettle"
              }
            """);
  }

  @Test
  void rowCountJsonPathAndTruncation() {
    assertThat(new Expectation.RowCount(2).check(ROWS)).isEmpty();
    assertThat(new Expectation.RowCount(1).check(ROWS).orElseThrow().message())
        .isEqualTo("expected 1 row(s), got 2");
    assertThat(
            new Expectation.PathValue(JsonPath.parse("$[1].name"), json("\"kettle\"")).check(ROWS))
        .isEmpty();
    assertThat(
            new Expectation.PathValue(JsonPath.parse("$[0].id"), json("4"))
                .check(ROWS)
                .orElseThrow()
                .message())
        .isEqualTo("expected 4, got 3");
    assertThat(
            new Expectation.PathValue(JsonPath.parse("$[5]"), json("4"))
                .check(ROWS)
                .orElseThrow()
                .message())
        .isEqualTo("the path selects nothing");
    assertThat(new Expectation.Truncated(false).check(ROWS)).isEmpty();
    assertThat(new Expectation.Truncated(true).check(ROWS).orElseThrow().message())
        .isEqualTo("expected a cap to cut the result, none did");
  }

  @Test
  void errorMatchesTheMessageOfAFailureAndAFailureFailsEveryOtherExpectation() {
    assertThat(new Expectation.ErrorMatching(Pattern.compile("must be an integer")).check(REFUSED))
        .isEmpty();
    assertThat(new Expectation.ErrorMatching(Pattern.compile("")).check(REFUSED)).isEmpty();
    assertThat(
            new Expectation.ErrorMatching(Pattern.compile("^unknown"))
                .check(REFUSED)
                .orElseThrow()
                .message())
        .isEqualTo("the error does not match /^unknown/");
    assertThat(
            new Expectation.ErrorMatching(Pattern.compile("x")).check(ROWS).orElseThrow().message())
        .isEqualTo("expected an error matching /x/, the call succeeded");
    assertThat(new Expectation.RowCount(0).check(REFUSED).orElseThrow().message())
        .isEqualTo("the call failed (isError): input `id` must be an integer");
  }

  @Test
  void toolCallsCompareToolsInOrderAndArgumentsOnlyWhereGiven() {
    Answer run =
        Answer.success(
            json(
                "{\"answer\":\"7\",\"tool_calls\":[{\"tool\":\"find\",\"arguments\":{\"p\":\"b\"},"
                    + "\"result\":[],\"failed\":false},{\"tool\":\"list\",\"arguments\":{},"
                    + "\"result\":{},\"failed\":true}]}"),
            false);

    assertThat(
            new Expectation.ToolCalls(
                    List.of(
                        json("{\"tool\":\"find\",\"arguments\":{\"p\":\"b\"}}"),
                        json("{\"tool\":\"list\"}")))
                .check(run))
        .isEmpty();
    Mismatch mismatch =
        new Expectation.ToolCalls(List.of(json("{\"tool\":\"list\"}"))).check(run).orElseThrow();
    assertThat(mismatch.message()).isEqualTo("the tools called differ");
    assertThat(mismatch.diff())
        .isEqualTo(
            """
              [ {
            -   "tool" : "list"
            +   "tool" : "find"
            + }, {
            +   "tool" : "list",
            +   "arguments" : { }
              } ]
            """);
  }

  @Test
  void textMatchingFindsThePatternInTheSelectedText() {
    Answer guide = Answer.success(json("{\"text\":\"# Guide\\nline\"}"), false);

    assertThat(
            new Expectation.TextMatching(
                    "text_matches", JsonPath.parse("$.text"), Pattern.compile("(?m)^line"))
                .check(guide))
        .isEmpty();
    assertThat(
            new Expectation.TextMatching(
                    "text_matches", JsonPath.parse("$.text"), Pattern.compile("^x"))
                .check(guide)
                .orElseThrow()
                .message())
        .isEqualTo("the text does not match /^x/");
    assertThat(
            new Expectation.TextMatching(
                    "text_matches", JsonPath.parse("$.blob"), Pattern.compile("x"))
                .check(guide)
                .orElseThrow()
                .message())
        .isEqualTo("there is no text");
  }
}
