package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.json.Json;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The wire records of MCP results other than tool results: what svc writes, and reading them back
 * with absent, null and unknown fields.
 */
class McpResultsTest {
  static JsonNode json(String text) {
    return Json.MAPPER.readTree(text);
  }

  static <T extends McpJson> String roundTrip(String text, ListResult.Listing<T> listing) {
    return ListResult.fromJson(json(text), "result", listing).toJson().toString();
  }

  @Test
  void aToolsListEntryHasItsNameDescriptionAndSchema() {
    String list =
        "{\"tools\":[{\"name\":\"t\",\"description\":\"d\",\"inputSchema\":{\"type\":\"object\",\"properties\":{}}}]}";
    assertThat(roundTrip(list, ListResult.Listing.TOOLS)).isEqualTo(list);
    ListResult.Tool bare =
        ListResult.Tool.fromJson(
            json(
                "{\"name\":\"t\",\"description\":null,\"title\":\"T\",\"inputSchema\":{\"type\":\"object\"}}"),
            "tool");
    assertThat(bare.description()).isEmpty();
    assertThat(bare.toJson().toString())
        .isEqualTo("{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}");
    assertThatThrownBy(() -> roundTrip("{\"tools\":[{\"name\":\"t\"}]}", ListResult.Listing.TOOLS))
        .hasMessage("`result.tools[0].inputSchema` is required");
    assertThat(roundTrip("{\"nextCursor\":\"c\"}", ListResult.Listing.TOOLS))
        .isEqualTo("{\"tools\":[]}");
  }

  @Test
  void aToolsListEntryMayCarryAnnotationsAndAnOutputSchema() {
    String full =
        "{\"name\":\"t\",\"description\":\"d\",\"inputSchema\":{\"type\":\"object\"},"
            + "\"annotations\":{\"title\":\"T\",\"readOnlyHint\":true,\"destructiveHint\":false,"
            + "\"idempotentHint\":true,\"openWorldHint\":false},"
            + "\"outputSchema\":{\"type\":\"object\",\"properties\":{\"rows\":{\"type\":\"array\"}}}}";
    assertThat(ListResult.Tool.fromJson(json(full), "tool").toJson().toString()).isEqualTo(full);

    ListResult.Tool partial =
        ListResult.Tool.fromJson(
            json(
                "{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"},\"outputSchema\":null,"
                    + "\"annotations\":{\"readOnlyHint\":null,\"openWorldHint\":true,\"later\":1}}"),
            "tool");
    assertThat(partial.outputSchema()).isEmpty();
    assertThat(partial.annotations().orElseThrow().readOnlyHint()).isEmpty();
    assertThat(partial.toJson().toString())
        .isEqualTo(
            "{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"openWorldHint\":true}}");

    assertThatThrownBy(() ->
            ListResult.Tool.fromJson(
                json(
                    "{\"name\":\"t\",\"inputSchema\":{},\"annotations\":{\"readOnlyHint\":\"yes\"}}"),
                "tool"))
        .hasMessageContaining("tool.annotations.readOnlyHint");
    assertThatThrownBy(() ->
            ListResult.Tool.fromJson(
                json("{\"name\":\"t\",\"inputSchema\":{},\"outputSchema\":[]}"), "tool"))
        .hasMessageContaining("tool.outputSchema");
  }

  @Test
  void annotationsAreSentOnlyWhenSvcHasAHint() {
    assertThat(ListResult.Annotations.of(dev.svc.model.ToolAnnotations.NONE)).isEmpty();
    assertThat(
            ListResult.Annotations.of(dev.svc.model.ToolAnnotations.READS)
                .orElseThrow()
                .toJson()
                .toString())
        .isEqualTo(
            "{\"readOnlyHint\":true,\"destructiveHint\":false,\"idempotentHint\":true,\"openWorldHint\":false}");
  }

  @Test
  void anInitializeResultSaysOnlyWhatTheServerOffers() {
    String full =
        "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{\"listChanged\":false},"
            + "\"prompts\":{\"listChanged\":false},\"resources\":{\"subscribe\":true,\"listChanged\":false},"
            + "\"completions\":{},\"logging\":{}},\"serverInfo\":{\"name\":\"shop\",\"version\":\"1.0.0\"}}";
    assertThat(InitializeResult.fromJson(json(full), "result").toJson().toString()).isEqualTo(full);
    InitializeResult sparse =
        InitializeResult.fromJson(
            json(
                "{\"protocolVersion\":\"2025-06-18\",\"instructions\":null,\"capabilities\":{\"tools\":{},"
                    + "\"prompts\":null,\"experimental\":{\"x\":{}}},\"serverInfo\":{\"name\":\"s\",\"version\":\"2\",\"title\":\"S\"}}"),
            "result");
    assertThat(sparse.capabilities())
        .isEqualTo(
            new ServerCapabilities(
                Optional.of(new ServerCapabilities.Listing(Optional.empty())),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty()));
    assertThat(sparse.toJson().toString())
        .isEqualTo(
            "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                + "\"serverInfo\":{\"name\":\"s\",\"version\":\"2\"}}");
    assertThatThrownBy(() ->
            InitializeResult.fromJson(
                json(
                    "{\"protocolVersion\":\"1\",\"capabilities\":{\"tools\":{\"listChanged\":\"yes\"}},"
                        + "\"serverInfo\":{\"name\":\"s\",\"version\":\"2\"}}"),
                "result"))
        .hasMessage("`result.capabilities.tools.listChanged` must be true or false");
  }

  @Test
  void aListedPromptAlwaysHasItsArgumentsAndEachArgumentWhetherItIsRequired() {
    String full =
        "{\"prompts\":[{\"name\":\"p\",\"title\":\"P\",\"description\":\"d\",\"arguments\":"
            + "[{\"name\":\"a\",\"title\":\"A\",\"description\":\"x\",\"required\":true}]}]}";
    assertThat(roundTrip(full, ListResult.Listing.PROMPTS)).isEqualTo(full);
    assertThat(
            roundTrip(
                "{\"prompts\":[{\"name\":\"p\",\"title\":null,\"icons\":[],\"arguments\":[{\"name\":\"a\",\"required\":null}]},"
                    + "{\"name\":\"q\"}]}",
                ListResult.Listing.PROMPTS))
        .isEqualTo(
            "{\"prompts\":[{\"name\":\"p\",\"arguments\":[{\"name\":\"a\",\"required\":false}]},"
                + "{\"name\":\"q\",\"arguments\":[]}]}");
  }

  @Test
  void aPromptsMessagesHaveARoleOneContentItemAndMaybeMeta() {
    assertThat(
            GetPromptResult.fromJson(
                json(
                    "{\"description\":null,\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"},"
                        + "\"_meta\":null,\"later\":1}]}"),
                "result"))
        .isEqualTo(
            new GetPromptResult(
                Optional.empty(),
                List.of(
                    new GetPromptResult.Message(
                        GetPromptResult.Role.USER, Content.text("hi"), Optional.empty()))));
    String full =
        "{\"description\":\"d\",\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"},"
            + "\"_meta\":{\"svc/role\":\"system\"}},{\"role\":\"assistant\",\"content\":{\"type\":\"image\","
            + "\"data\":\"AAA=\",\"mimeType\":\"image/png\"}}]}";
    assertThat(GetPromptResult.fromJson(json(full), "result").toJson().toString()).isEqualTo(full);
    assertThatThrownBy(() ->
            GetPromptResult.fromJson(
                json(
                    "{\"messages\":[{\"role\":\"system\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}]}"),
                "result"))
        .hasMessage("`result.messages[0].role` must be user or assistant");
  }

  @Test
  void listedResourcesAndTemplatesDifferOnlyByHowTheyAreFound() {
    String resources =
        "{\"resources\":[{\"uri\":\"a://b\",\"name\":\"b\",\"title\":\"B\",\"description\":\"d\",\"mimeType\":\"text/plain\"}]}";
    assertThat(roundTrip(resources, ListResult.Listing.RESOURCES)).isEqualTo(resources);
    String templates =
        "{\"resourceTemplates\":[{\"uriTemplate\":\"a://{id}\",\"name\":\"t\",\"mimeType\":\"application/json\"}]}";
    assertThat(roundTrip(templates, ListResult.Listing.RESOURCE_TEMPLATES)).isEqualTo(templates);
    assertThat(
            roundTrip(
                "{\"resources\":[{\"uri\":\"a://b\",\"name\":\"b\",\"mimeType\":null,\"size\":3,\"annotations\":{}}]}",
                ListResult.Listing.RESOURCES))
        .isEqualTo("{\"resources\":[{\"uri\":\"a://b\",\"name\":\"b\"}]}");
    assertThatThrownBy(() ->
            roundTrip(
                "{\"resourceTemplates\":[{\"uri\":\"a://b\",\"name\":\"b\"}]}",
                ListResult.Listing.RESOURCE_TEMPLATES))
        .hasMessage("`result.resourceTemplates[0].uriTemplate` is required");
  }

  @Test
  void aReadResourceResultHoldsTheContents() {
    String read =
        "{\"contents\":[{\"uri\":\"a://b\",\"mimeType\":\"image/png\",\"blob\":\"AAA=\"}]}";
    assertThat(ReadResourceResult.fromJson(json(read), "result").toJson().toString())
        .isEqualTo(read);
    assertThat(
            ReadResourceResult.fromJson(
                    json(
                        "{\"contents\":[{\"uri\":\"a://b\",\"text\":\"t\",\"size\":1}],\"_meta\":null}"),
                    "result")
                .contents())
        .containsExactly(
            new Contents("a://b", Optional.empty(), new Contents.Body.Text("t"), Optional.empty()));
  }

  @Test
  void aCompleteResultCarriesTheValuesUnderCompletion() {
    String full = "{\"completion\":{\"values\":[\"a\",\"b\"],\"total\":2,\"hasMore\":false}}";
    assertThat(CompleteResult.fromJson(json(full), "result").toJson().toString()).isEqualTo(full);
    assertThat(
            CompleteResult.fromJson(
                json("{\"completion\":{\"values\":[],\"total\":null,\"more\":1}}"), "result"))
        .isEqualTo(new CompleteResult(List.of(), Optional.empty(), Optional.empty()));
    assertThatThrownBy(
            () -> CompleteResult.fromJson(json("{\"completion\":{\"values\":[1]}}"), "result"))
        .hasMessage("`result.completion.values[0]` must be a string");
  }
}
