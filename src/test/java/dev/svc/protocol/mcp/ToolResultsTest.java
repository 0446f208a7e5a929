package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.runtime.ToolOutcome;
import dev.svc.runtime.Truncation;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ToolResultsTest {
  @Test
  void anObjectPayloadIsTextAndStructuredContent() {
    JsonNode result =
        json(ToolResults.of(new ToolOutcome.Success(Json.MAPPER.readTree("{\"a\":1}"))));
    assertThat(result.toString())
        .isEqualTo(
            "{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"a\\\":1}\"}],\"structuredContent\":{\"a\":1},\"isError\":false}");
  }

  @Test
  void otherPayloadsAreWrappedInResult() {
    JsonNode result = json(ToolResults.of(new ToolOutcome.Success(Json.MAPPER.readTree("[1,2]"))));
    assertThat(result.path("structuredContent").toString()).isEqualTo("{\"result\":[1,2]}");
  }

  @Test
  void aStatementsRowsAreStructuredUnderRowsAndTheirTextIsTheListAsBefore() {
    JsonNode result =
        json(
            ToolResults.of(
                new ToolOutcome.Success(
                    Json.MAPPER.readTree("[{\"n\":1}]"),
                    ToolOutcome.Envelope.ROWS,
                    Optional.empty(),
                    Optional.of("[{\"n\":1}]"))));
    assertThat(result.path("structuredContent").toString()).isEqualTo("{\"rows\":[{\"n\":1}]}");
    assertThat(result.path("content").get(0).path("text").asString()).isEqualTo("[{\"n\":1}]");
  }

  @Test
  void aCutResultSaysSoInItsTextAndStructuredContentAlike() {
    JsonNode result =
        json(
            ToolResults.of(
                new ToolOutcome.Success(
                    Json.MAPPER.readTree("[{\"n\":1}]"),
                    ToolOutcome.Envelope.ROWS,
                    Optional.of(new Truncation(1, Truncation.Limit.MAX_BYTES, Optional.of("c1"))),
                    Optional.empty())));
    String envelope =
        "{\"rows\":[{\"n\":1}],\"truncated\":true,\"returned_rows\":1,\"limit\":\"max_bytes\","
            + "\"next_cursor\":\"c1\"}";
    assertThat(result.path("structuredContent").toString()).isEqualTo(envelope);
    assertThat(result.path("content").get(0).path("text").asString()).isEqualTo(envelope);
    assertThat(result.path("isError").asBoolean()).isFalse();
  }

  @Test
  void mcpContentItemsAreSentAsTheyAre() {
    JsonNode payload =
        Json.MAPPER.readTree(
            "{\"mcp:content\":[{\"type\":\"text\",\"text\":\"hi\"},{\"type\":\"image\",\"data\":\"AAA=\",\"mimeType\":\"image/png\"}]}");
    JsonNode result = json(ToolResults.of(new ToolOutcome.Success(payload)));
    assertThat(result.path("content").size()).isEqualTo(2);
    assertThat(result.path("content").get(1).path("type").asString()).isEqualTo("image");
    assertThat(result.has("structuredContent")).isFalse();
    assertThat(result.path("isError").asBoolean()).isFalse();
  }

  @Test
  void invalidMcpContentIsAToolError() {
    JsonNode payload =
        Json.MAPPER.readTree("{\"mcp:content\":[{\"type\":\"image\",\"data\":\"AAA=\"}]}");
    JsonNode result = json(ToolResults.of(new ToolOutcome.Success(payload)));
    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.path("content").get(0).path("text").asString())
        .isEqualTo("invalid MCP content: content item 1 (image) lacks a required field");
  }

  @Test
  void mcpContentItemsKeepTheirAnnotationsAndMeta() {
    String items =
        "[{\"type\":\"text\",\"text\":\"hi\",\"annotations\":{\"priority\":1},\"_meta\":{\"k\":1}}]";
    assertThat(resultOf("{\"mcp:content\":" + items + "}").path("content"))
        .isEqualTo(Json.MAPPER.readTree(items));
  }

  @Test
  void anItemWithAnOptionalFieldOfTheWrongTypeIsAToolErrorNamingIt() {
    JsonNode result =
        resultOf(
            "{\"mcp:content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\",\"_meta\":7}]}");
    assertThat(result.path("content").get(0).path("text").asString())
        .isEqualTo(
            "invalid MCP content: content item 2 (text) is invalid: `mcp:content[1]._meta` must be an object");
    assertThat(result.path("isError").asBoolean()).isTrue();
  }

  /** The result of a call whose payload is {@code payload}, as a client reads it. */
  private static JsonNode resultOf(String payload) {
    return json(ToolResults.of(new ToolOutcome.Success(Json.MAPPER.readTree(payload))));
  }

  private static JsonNode json(CallToolResult result) {
    return Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(result.toJson()));
  }
}
