package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BoundValueRedactionTest {
  private static final String SECRET = "my-credit-card-4111";

  private static String redact(Map<String, ?> values, String message) {
    return BoundValueRedaction.of(values).apply(message);
  }

  @Test
  void aQuotedValueBecomesThePlaceholderItStoodFor() {
    assertThat(
            redact(
                Map.of("n", SECRET),
                "invalid input syntax for type integer: \"my-credit-card-4111\""))
        .isEqualTo("invalid input syntax for type integer: \"{{ inputs.n }}\"");
  }

  @Test
  void eachLineOfAValueSpanningLinesIsReplaced() {
    // svc keeps a message's first line, which ended inside the value: "pw-Secret1 was left
    assertThat(
            redact(
                Map.of("k", "pw-Secret1\nx"),
                "invalid input syntax for type integer: \"pw-Secret1"))
        .isEqualTo("invalid input syntax for type integer: \"{{ inputs.k }}");
    assertThat(redact(Map.of("k", "TopSecret\r\nNL"), "Duplicate entry 'TopSecret"))
        .isEqualTo("Duplicate entry '{{ inputs.k }}");
  }

  @Test
  void everyOccurrenceOfEveryValueIsReplaced() {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("a", "alpha-value");
    values.put("b", 41111111L);
    assertThat(redact(values, "'alpha-value' vs 41111111 vs 'alpha-value'"))
        .isEqualTo("'{{ inputs.a }}' vs {{ inputs.b }} vs '{{ inputs.a }}'");
  }

  @Test
  void shortValuesBooleansAndNullsAreLeftAsTheMessagesOwnWords() {
    Map<String, Object> values = new HashMap<>();
    values.put("id", "id");
    values.put("n", 42L);
    values.put("flag", true);
    values.put("none", null);
    String message = "column id is 42 and not true; null";

    assertThat(redact(values, message)).isEqualTo(message);
  }

  @Test
  void aValueCutShortByTheDatabaseIsReplacedFromItsFirstSixteenCharacters() {
    String value = "my-credit-card-4111-1111-1111-1111";
    assertThat(redact(Map.of("card", value), "Duplicate entry 'my-credit-card-4111-11' for key"))
        .isEqualTo("Duplicate entry '{{ inputs.card }}' for key");
    assertThat(redact(Map.of("card", value), "a run of my-credit-card- only"))
        .isEqualTo("a run of my-credit-card- only"); // 15 characters: not enough to tell
  }

  @Test
  void escapedFormsOfTheValueAreReplacedToo() {
    String value = "it's \"quoted\"";
    assertThat(redact(Map.of("q", value), "near 'it''s \"quoted\"' at line 1"))
        .isEqualTo("near '{{ inputs.q }}' at line 1");
    assertThat(redact(Map.of("q", value), "bad value: \"it's \\\"quoted\\\"\""))
        .isEqualTo("bad value: \"{{ inputs.q }}\"");
    assertThat(redact(Map.of("q", value), "near 'it\\'s \"quoted\"'"))
        .isEqualTo("near '{{ inputs.q }}'");
  }

  @Test
  void overlappingValuesBecomeOneMarkerAndAMarkerIsNeverRedactedAgain() {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("whole", "secret-and-more");
    values.put("part", "and-more-text");
    values.put("word", "inputs");
    assertThat(redact(values, "x secret-and-more-text y")).isEqualTo("x {{ inputs.whole }} y");
  }

  @Test
  void numbersDatesAndStructuredValuesAreFoundByTheirText() {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("price", 12345.5);
    values.put("big", new BigDecimal("99999999999999999999.5"));
    values.put("day", LocalDate.parse("2024-05-01"));
    values.put("doc", Json.MAPPER.readTree("{\"tags\": [\"hidden-tag\"], \"n\": 123456}"));

    assertThat(
            redact(values, "12345.5 / 99999999999999999999.5 / 2024-05-01 / hidden-tag / 123456"))
        .isEqualTo(
            "{{ inputs.price }} / {{ inputs.big }} / {{ inputs.day }} / {{ inputs.doc }} /"
                + " {{ inputs.doc }}");
  }

  @Test
  void aStatementFailureKeepsItsKindAndItsCausesLoseTheValue() {
    SQLException driver =
        new SQLException("ERROR: invalid input syntax for type integer: \"" + SECRET + "\"");
    StatementFailedException failure =
        new StatementFailedException(
            "invalid input syntax for type integer: \"" + SECRET + "\"", false, driver);

    RuntimeException redacted = BoundValueRedaction.of(Map.of("n", SECRET)).apply(failure);

    assertThat(redacted)
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("invalid input syntax for type integer: \"{{ inputs.n }}\"");
    assertThat(((StatementFailedException) redacted).timedOut()).isFalse();
    Throwable cause = redacted.getCause();
    assertThat(cause.toString())
        .isEqualTo(
            "java.sql.SQLException: ERROR: invalid input syntax for type integer:"
                + " \"{{ inputs.n }}\"");
    assertThat(cause.getStackTrace()).isEqualTo(driver.getStackTrace());
  }

  @Test
  void aConnectorFailureKeepsItsCode() {
    ConnectorUnavailableException failure =
        new ConnectorUnavailableException("lost the connection: near '" + SECRET + "'");

    RuntimeException redacted = BoundValueRedaction.of(Map.of("v", SECRET)).apply(failure);

    assertThat(redacted)
        .isInstanceOfSatisfying(
            ConnectorUnavailableException.class,
            e -> assertThat(e.code()).isEqualTo(ConnectorUnavailableException.UNAVAILABLE))
        .hasMessage("lost the connection: near '{{ inputs.v }}'");
  }

  @Test
  void aFailureThatQuotesNoValueIsReturnedAsItIs() {
    StatementFailedException failure =
        new StatementFailedException("relation \"itemz\" does not exist", false, null);

    assertThat(BoundValueRedaction.of(Map.of("v", SECRET)).apply(failure)).isSameAs(failure);
    assertThat(BoundValueRedaction.of(Map.of()).apply(failure)).isSameAs(failure);
  }

  @Test
  void aHugeValueInAShortMessageCostsNothingAndIsFoundByItsStart() {
    String huge = "x".repeat(1_000_000) + "tail";
    assertThat(redact(Map.of("blob", huge), "value too long: 'xxxxxxxxxxxxxxxxxxxxxxxx'"))
        .isEqualTo("value too long: '{{ inputs.blob }}'");
  }
}
