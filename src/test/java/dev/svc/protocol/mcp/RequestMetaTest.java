package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.json.Json;
import dev.svc.log.Level;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class RequestMetaTest {
  private static ObjectNode params(String json) {
    return (ObjectNode) Json.MAPPER.readTree(json);
  }

  @Test
  void readsTheVersionCapabilitiesLevelAndProgressToken() {
    RequestMeta meta =
        RequestMeta.of(
            params(
                """
                {"_meta": {
                  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
                  "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
                  "io.modelcontextprotocol/logLevel": "warning",
                  "progressToken": 7}}
                """));

    assertThat(meta.protocolVersion()).isEqualTo("2026-07-28");
    assertThat(meta.declares("elicitation")).isTrue();
    assertThat(meta.declares("sampling")).isFalse();
    assertThat(meta.clientInfo()).isPresent();
    assertThat(meta.logLevel()).contains(Level.WARN);
    assertThat(meta.progressToken().orElseThrow().asInt()).isEqualTo(7);
  }

  @Test
  void clientInfoLevelAndTokenAreOptional() {
    RequestMeta meta =
        RequestMeta.of(
            params(
                """
                {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                           "io.modelcontextprotocol/clientCapabilities": {}}}
                """));

    assertThat(meta.clientInfo()).isEmpty();
    assertThat(meta.logLevel()).isEmpty();
    assertThat(meta.progressToken()).isEmpty();
  }

  @Test
  void aMissingOrMalformedRequiredKeyIsInvalidParams() {
    for (String json :
        new String[] {
          "{}",
          "{\"_meta\": 3}",
          "{\"_meta\": {\"io.modelcontextprotocol/clientCapabilities\": {}}}",
          "{\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": 2026,"
              + " \"io.modelcontextprotocol/clientCapabilities\": {}}}",
          "{\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\"}}",
          "{\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\","
              + " \"io.modelcontextprotocol/clientCapabilities\": []}}",
          "{\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\","
              + " \"io.modelcontextprotocol/clientCapabilities\": {},"
              + " \"io.modelcontextprotocol/logLevel\": \"loud\"}}",
          "{\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\","
              + " \"io.modelcontextprotocol/clientCapabilities\": {},"
              + " \"io.modelcontextprotocol/clientInfo\": \"curl\"}}",
          "{\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\","
              + " \"io.modelcontextprotocol/clientCapabilities\": {},"
              + " \"io.modelcontextprotocol/clientInfo\": {\"name\": 7, \"version\": \"1\"}}}",
          "{\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\","
              + " \"io.modelcontextprotocol/clientCapabilities\": {},"
              + " \"io.modelcontextprotocol/clientInfo\": {\"name\": \"c\"}}}"
        }) {
      assertThatThrownBy(() -> RequestMeta.of(params(json)))
          .as(json)
          .isInstanceOfSatisfying(
              JsonRpcException.class, e -> assertThat(e.error().code()).isEqualTo(-32602));
    }
  }

  @Test
  void aBodyClaimsARevisionOnlyThroughItsMeta() {
    assertThat(
            RequestMeta.claimedVersion(
                params("{\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"x\"}}")))
        .isPresent();
    assertThat(RequestMeta.claimedVersion(params("{\"protocolVersion\": \"2026-07-28\"}")))
        .isEmpty();
    assertThat(RequestMeta.claimedVersion(params("{\"_meta\": \"no\"}"))).isEmpty();
  }
}
