package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.runtime.Json;
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

  @Test
  void aToolsListEntryHasItsNameDescriptionAndSchema() {
    String entry =
        "{\"name\":\"t\",\"description\":\"d\",\"inputSchema\":{\"type\":\"object\",\"properties\":{}}}";
    ListToolsResult read = ListToolsResult.fromJson(json("{\"tools\":[" + entry + "]}"), "result");
    assertThat(read.toJson().toString()).isEqualTo("{\"tools\":[" + entry + "]}");
    ListToolsResult.Tool bare =
        ListToolsResult.Tool.fromJson(
            json(
                "{\"name\":\"t\",\"description\":null,\"title\":\"T\",\"inputSchema\":{\"type\":\"object\"}}"),
            "tool");
    assertThat(bare.description()).isEmpty();
    assertThat(bare.toJson().toString())
        .isEqualTo("{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}");
    assertThatThrownBy(
            () -> ListToolsResult.fromJson(json("{\"tools\":[{\"name\":\"t\"}]}"), "result"))
        .hasMessage("`result.tools[0].inputSchema` is required");
    assertThat(ListToolsResult.fromJson(json("{}"), "result").tools()).isEmpty();
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
}
