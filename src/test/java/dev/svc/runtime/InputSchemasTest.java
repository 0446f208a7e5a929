package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.Model;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class InputSchemasTest {
  @TempDir Path dir;

  @Test
  void anInputWithAHeaderCarriesItAsXMcpHeaderAndTheOthersDoNot() throws Exception {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: headers
            == app/tools/find/config.terse
            description: Finds.
            inputs:
              region: {description: "Cloud region.", header: Region}
              priority: {type: int, header: Priority}
              query: {}
            == app/tools/find/handler.ts
            export default () => 1;
            """);
    ObjectNode properties =
        (ObjectNode) InputSchemas.of(model.tool("find").orElseThrow()).path("properties");
    assertThat(properties.path("region").path("x-mcp-header").asString()).isEqualTo("Region");
    assertThat(properties.path("priority").path("x-mcp-header").asString()).isEqualTo("Priority");
    assertThat(properties.path("query").has("x-mcp-header")).isFalse();
  }
}
