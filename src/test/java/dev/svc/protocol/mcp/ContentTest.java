package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.json.Json;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The wire records of tool results: absent, null and unknown fields, and what is required. */
class ContentTest {
  static JsonNode json(String text) {
    return Json.MAPPER.readTree(text);
  }

  /** Reads {@code text} as a content item and writes it back. */
  static String roundTrip(String text) {
    return Content.fromJson(json(text), "c").toJson().toString();
  }

  @Test
  void eachKindOfItemIsWrittenWithItsTypeFirst() {
    for (String item :
        List.of(
            "{\"type\":\"text\",\"text\":\"hi\"}",
            "{\"type\":\"image\",\"data\":\"AAA=\",\"mimeType\":\"image/png\"}",
            "{\"type\":\"audio\",\"data\":\"AAA=\",\"mimeType\":\"audio/wav\"}",
            "{\"type\":\"resource\",\"resource\":{\"uri\":\"a://b\",\"mimeType\":\"text/plain\",\"text\":\"t\"}}",
            "{\"type\":\"resource\",\"resource\":{\"uri\":\"a://b\",\"blob\":\"AAA=\"}}",
            "{\"type\":\"resource_link\",\"uri\":\"a://b\",\"name\":\"b\",\"title\":\"B\",\"description\":\"d\","
                + "\"mimeType\":\"text/plain\",\"size\":3,\"icons\":[{\"src\":\"i.png\"}]}")) {
      assertThat(roundTrip(item)).isEqualTo(item);
    }
  }

  @Test
  void absentOptionalFieldsAreLeftOut() {
    Content.ResourceLink link =
        (Content.ResourceLink)
            Content.fromJson(
                json("{\"type\":\"resource_link\",\"uri\":\"a://b\",\"name\":\"b\"}"), "c");
    assertThat(link.title()).isEmpty();
    assertThat(link.size()).isEmpty();
    assertThat(link.annotations()).isEmpty();
    assertThat(link.toJson().toString())
        .isEqualTo("{\"type\":\"resource_link\",\"uri\":\"a://b\",\"name\":\"b\"}");
    assertThat(Content.text("hi").toJson().toString())
        .isEqualTo("{\"type\":\"text\",\"text\":\"hi\"}");
  }

  @Test
  void nullFieldsAreAbsent() {
    Content.Text text =
        (Content.Text)
            Content.fromJson(
                json("{\"type\":\"text\",\"text\":\"hi\",\"annotations\":null,\"_meta\":null}"),
                "c");
    assertThat(text).isEqualTo(Content.text("hi"));
    assertThat(
            roundTrip(
                "{\"type\":\"resource\",\"resource\":{\"uri\":\"a://b\",\"mimeType\":null,\"text\":null,\"blob\":\"AAA=\"}}"))
        .isEqualTo("{\"type\":\"resource\",\"resource\":{\"uri\":\"a://b\",\"blob\":\"AAA=\"}}");
  }

  @Test
  void unknownFieldsAreIgnoredAndAnnotationsAndMetaAreKept() {
    assertThat(
            roundTrip(
                "{\"type\":\"image\",\"future\":1,\"data\":\"AAA=\",\"mimeType\":\"image/png\","
                    + "\"annotations\":{\"audience\":[\"user\"]},\"_meta\":{\"k\":1}}"))
        .isEqualTo(
            "{\"type\":\"image\",\"data\":\"AAA=\",\"mimeType\":\"image/png\","
                + "\"annotations\":{\"audience\":[\"user\"]},\"_meta\":{\"k\":1}}");
    assertThat(
            roundTrip(
                "{\"type\":\"resource\",\"resource\":{\"uri\":\"a://b\",\"text\":\"t\",\"next\":true,\"_meta\":{\"m\":2}}}"))
        .isEqualTo(
            "{\"type\":\"resource\",\"resource\":{\"uri\":\"a://b\",\"text\":\"t\",\"_meta\":{\"m\":2}}}");
  }

  @Test
  void aRequiredFieldMissingOrOfAnotherTypeIsMissingAndAnOptionalOneOfAnotherTypeIsInvalid() {
    assertThatThrownBy(() -> Content.fromJson(json("{\"type\":\"image\",\"data\":\"AAA=\"}"), "c"))
        .isInstanceOfSatisfying(McpShapeException.class, e -> assertThat(e.missing()).isTrue())
        .hasMessage("`c.mimeType` is required");
    assertThatThrownBy(() -> Content.fromJson(json("{\"type\":\"text\",\"text\":5}"), "c"))
        .isInstanceOfSatisfying(McpShapeException.class, e -> assertThat(e.missing()).isTrue());
    assertThatThrownBy(() ->
            Content.fromJson(json("{\"type\":\"resource\",\"resource\":{\"uri\":\"a://b\"}}"), "c"))
        .hasMessage("`c.resource.blob` is required");
    assertThatThrownBy(() ->
            Content.fromJson(json("{\"type\":\"text\",\"text\":\"hi\",\"annotations\":[]}"), "c"))
        .isInstanceOfSatisfying(McpShapeException.class, e -> assertThat(e.missing()).isFalse())
        .hasMessage("`c.annotations` must be an object");
    assertThatThrownBy(() -> Content.fromJson(json("{\"type\":\"video\"}"), "c"))
        .hasMessage("`c.type` must be one of text, image, audio, resource, resource_link");
  }

  @Test
  void aCallToolResultAlwaysSaysWhetherItIsAnError() {
    CallToolResult read =
        CallToolResult.fromJson(
            json(
                "{\"content\":[{\"type\":\"text\",\"text\":\"1\"}],\"structuredContent\":null,\"later\":{}}"),
            "result");
    assertThat(read).isEqualTo(CallToolResult.text("1", false));
    assertThat(read.toJson().toString())
        .isEqualTo("{\"content\":[{\"type\":\"text\",\"text\":\"1\"}],\"isError\":false}");
    String full =
        "{\"content\":[{\"type\":\"text\",\"text\":\"{}\"}],\"structuredContent\":{\"a\":[1]},\"isError\":true}";
    assertThat(CallToolResult.fromJson(json(full), "result").toJson().toString()).isEqualTo(full);
    assertThat(CallToolResult.fromJson(json("{}"), "result"))
        .isEqualTo(new CallToolResult(List.of(), Optional.empty(), false));
  }
}
