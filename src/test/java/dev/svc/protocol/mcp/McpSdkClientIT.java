package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.RunningProject;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The official MCP Java SDK client talks to svc unmodified. */
class McpSdkClientIT {
  @TempDir Path dir;

  @Test
  void theOfficialClientInitializesListsAndCallsTools() {
    try (Instance instance =
        RunningProject.start(
            dir,
            """
            == .svc
            name: sdk
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/add/config.terse
            description: Adds two numbers.
            use: db
            statement: SELECT {{ inputs.a }} + {{ inputs.b }} AS sum
            inputs:
              a: {type: int}
              b: {type: int}
            == app/tools/broken/config.terse
            description: Fails.
            use: db
            statement: SELECT * FROM missing_table
            """)) {
      var transport =
          HttpClientStreamableHttpTransport.builder(instance.baseUrl()).endpoint("/mcp").build();
      try (McpSyncClient client =
          McpClient.sync(transport).requestTimeout(Duration.ofSeconds(10)).build()) {
        McpSchema.InitializeResult init = client.initialize();
        assertThat(init.serverInfo().name()).isEqualTo("sdk");

        assertThat(client.listTools().tools())
            .extracting(McpSchema.Tool::name)
            .containsExactly("add", "broken", "search");

        McpSchema.CallToolResult sum =
            client.callTool(
                McpSchema.CallToolRequest.builder("add")
                    .arguments(Map.of("a", 2, "b", 40))
                    .build());
        assertThat(sum.isError()).isFalse();
        assertThat(((McpSchema.TextContent) sum.content().getFirst()).text())
            .isEqualTo("[{\"sum\":42}]");

        McpSchema.CallToolResult failed =
            client.callTool(
                McpSchema.CallToolRequest.builder("broken").arguments(Map.of()).build());
        assertThat(failed.isError()).isTrue();

        client.ping();
      }
    }
  }
}
