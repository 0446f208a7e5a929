package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolOutcomeTextTest {
  @Test
  void aSuccessReadsAsItsPayloadsJson() {
    assertThat(ToolOutcomeText.of(new ToolOutcome.Success(Json.MAPPER.readTree("[{\"a\": 1}]"))))
        .isEqualTo("[{\"a\":1}]");
    assertThat(ToolOutcomeText.of(new ToolOutcome.Success(Json.NODES.stringNode("hi"))))
        .isEqualTo("\"hi\"");
  }

  @Test
  void anUncutStatementResultReadsAsItsRowsAsBefore() {
    ToolOutcome.Success rows =
        new ToolOutcome.Success(
            Json.MAPPER.readTree("[{\"a\":1}]"),
            ToolOutcome.Envelope.ROWS,
            Optional.empty(),
            Optional.empty());
    assertThat(ToolOutcomeText.of(rows)).isEqualTo("[{\"a\":1}]");
    assertThat(ToolOutcomeText.forModel(rows)).isSameAs(rows.payload());
    assertThat(ToolOutcomeText.structured(rows, "[{\"a\":1}]")).isEqualTo("{\"rows\":[{\"a\":1}]}");
  }

  @Test
  void aCutResultReadsAsTheWholeEnvelopeForClientsAndModelsAlike() {
    ToolOutcome.Success cut =
        new ToolOutcome.Success(
            Json.MAPPER.readTree("[{\"a\":1},{\"a\":2}]"),
            ToolOutcome.Envelope.ROWS,
            Optional.of(new Truncation(2, Truncation.Limit.MAX_ROWS, Optional.of("abc_-1"))),
            Optional.of("[{\"a\":1},{\"a\":2}]"));
    String envelope =
        "{\"rows\":[{\"a\":1},{\"a\":2}],\"truncated\":true,\"returned_rows\":2,"
            + "\"limit\":\"max_rows\",\"next_cursor\":\"abc_-1\"}";
    assertThat(ToolOutcomeText.of(cut)).isEqualTo(envelope);
    assertThat(Json.MAPPER.writeValueAsString(ToolOutcomeText.forModel(cut))).isEqualTo(envelope);

    ToolOutcome.Success handled =
        new ToolOutcome.Success(
            Json.MAPPER.readTree("[1]"),
            ToolOutcome.Envelope.RESULT,
            Optional.of(new Truncation(1, Truncation.Limit.MAX_BYTES, Optional.empty())),
            Optional.empty());
    assertThat(ToolOutcomeText.of(handled))
        .isEqualTo(
            "{\"result\":[1],\"truncated\":true,\"returned_rows\":1,\"limit\":\"max_bytes\"}");
  }

  @Test
  void aFailureReadsAsItsMessage() {
    assertThat(ToolOutcomeText.of(new ToolOutcome.Failure("no such table: t")))
        .isEqualTo("no such table: t");
  }
}
