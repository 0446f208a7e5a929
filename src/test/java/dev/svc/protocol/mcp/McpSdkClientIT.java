package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.cli.Instance;
import dev.svc.testing.InteropProject;
import dev.svc.testing.RunningProject;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The official MCP Java SDK client talks to svc unmodified (a 2025-11-25 session). */
class McpSdkClientIT {
  @TempDir static Path dir;
  static Instance instance;
  final List<McpSchema.LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();
  final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
  final List<String> asked = new CopyOnWriteArrayList<>();
  volatile McpSchema.ElicitResult answer =
      new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of());
  McpSyncClient client;

  @BeforeAll
  static void start() {
    instance = RunningProject.start(dir, InteropProject.FILES);
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  @BeforeEach
  void connect() {
    var transport =
        HttpClientStreamableHttpTransport.builder(instance.baseUrl()).endpoint("/mcp").build();
    client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(10))
            .loggingConsumer(logs::add)
            .progressConsumer(progress::add)
            .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
            .elicitation(request -> {
              asked.add(request.message());
              return answer;
            })
            .build();
    McpSchema.InitializeResult init = client.initialize();
    assertThat(init.serverInfo().name()).isEqualTo("interop");
    assertThat(init.protocolVersion()).isEqualTo("2025-11-25");
  }

  @AfterEach
  void close() {
    client.close();
  }

  @Test
  void theOfficialClientListsAndCallsTools() {
    assertThat(client.listTools().tools())
        .extracting(McpSchema.Tool::name)
        .containsExactly(
            "add", "broken", "forget", "greet", "in_region", "rename", "secret", "search");

    McpSchema.CallToolResult sum =
        client.callTool(
            McpSchema.CallToolRequest.builder("add").arguments(Map.of("a", 2, "b", 40)).build());
    assertThat(sum.isError()).isFalse();
    assertThat(((McpSchema.TextContent) sum.content().getFirst()).text())
        .isEqualTo("[{\"sum\":42}]");

    McpSchema.CallToolResult failed =
        client.callTool(McpSchema.CallToolRequest.builder("broken").arguments(Map.of()).build());
    assertThat(failed.isError()).isTrue();
    assertThat(((McpSchema.TextContent) failed.content().getFirst()).text())
        .isEqualTo("no such table: missing_table");

    client.ping();
  }

  @Test
  void logLinesAtTheSessionsLevelReachTheClientWithTheirText() {
    callGreet();
    client.setLoggingLevel(McpSchema.LoggingLevel.INFO);
    callGreet();

    // the SDK hands notifications to consumers on another thread
    awaitSize(logs, 1);
    assertThat(logs)
        .as("the info line of the second call only: not the debug one, none before the level")
        .singleElement()
        .satisfies(log -> {
          assertThat(log.level()).isEqualTo(McpSchema.LoggingLevel.INFO);
          assertThat(log.logger()).isEqualTo("script:greet");
          assertThat(log.data()).isEqualTo("greeting Ada");
        });

    client.callTool(McpSchema.CallToolRequest.builder("broken").arguments(Map.of()).build());
    awaitSize(logs, 2);
    assertThat(logs.getLast().level()).isEqualTo(McpSchema.LoggingLevel.WARNING);
    assertThat(logs.getLast().logger()).isEqualTo("svc");
    assertThat(logs.getLast().data()).startsWith("tool `broken` failed: no such table");
  }

  @Test
  void aCallWithAProgressTokenReportsItsProgress() {
    McpSchema.CallToolResult sum =
        client.callTool(
            McpSchema.CallToolRequest.builder("add")
                .arguments(Map.of("a", 1, "b", 1))
                .progressToken("sum-1")
                .build());

    assertThat(sum.isError()).isFalse();
    awaitSize(progress, 3);
    assertThat(progress)
        .extracting(McpSchema.ProgressNotification::progressToken)
        .containsOnly("sum-1");
    // the SDK hands each notification to the listener on a thread of its own, so they may arrive
    // in any order here (svc sends them in order: McpTransportIT reads the raw stream)
    assertThat(progress)
        .extracting(McpSchema.ProgressNotification::message)
        .containsExactlyInAnyOrder("calling add", "running add", "done");
    assertThat(progress)
        .filteredOn(p -> p.message().equals("done"))
        .singleElement()
        .satisfies(done -> assertThat(done.progress()).isEqualTo(done.total()));
  }

  @Test
  void resourcesAreListedAndRead() {
    assertThat(client.listResources().resources())
        .extracting(McpSchema.Resource::uri)
        .containsExactly("docs://guide");

    McpSchema.ReadResourceResult guide =
        client.readResource(McpSchema.ReadResourceRequest.builder("docs://guide").build());
    assertThat(guide.contents())
        .singleElement()
        .isInstanceOfSatisfying(
            McpSchema.TextResourceContents.class,
            text -> {
              assertThat(text.mimeType()).isEqualTo("text/markdown");
              assertThat(text.text()).startsWith("# Guide\n");
            });

    assertThatThrownBy(() ->
            client.readResource(
                McpSchema.ReadResourceRequest.builder("docs://nothing-here").build()))
        .isInstanceOf(McpError.class)
        .hasMessageContaining("Resource not found");
  }

  @Test
  void promptsAreListedRenderedAndCompleted() {
    assertThat(client.listPrompts().prompts())
        .extracting(McpSchema.Prompt::name)
        .containsExactly("review");

    McpSchema.GetPromptResult prompt =
        client.getPrompt(
            McpSchema.GetPromptRequest.builder("review")
                .arguments(Map.of("language", "java"))
                .build());
    assertThat(prompt.messages())
        .singleElement()
        .satisfies(message -> {
          assertThat(message.role()).isEqualTo(McpSchema.Role.USER);
          assertThat(((McpSchema.TextContent) message.content()).text())
              .isEqualTo("Review this java code.");
        });

    McpSchema.CompleteResult completion =
        client.completeCompletion(
            McpSchema.CompleteRequest.builder(
                    new McpSchema.PromptReference("review"),
                    new McpSchema.CompleteRequest.CompleteArgument("language", "ja"))
                .build());
    assertThat(completion.completion().values()).containsExactly("java", "javascript");
  }

  @Test
  void aToolThatMustBeConfirmedAsksTheUserAndRunsOnlyWhenAccepted() {
    McpSchema.CallToolRequest forget =
        McpSchema.CallToolRequest.builder("forget").arguments(Map.of("name", "Bob")).build();

    McpSchema.CallToolResult accepted = client.callTool(forget);
    assertThat(accepted.isError()).isFalse();
    assertThat(((McpSchema.TextContent) accepted.content().getFirst()).text())
        .isEqualTo("[{\"forgotten\":\"Bob\"}]");

    answer = new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.DECLINE, null);
    McpSchema.CallToolResult declined = client.callTool(forget);
    assertThat(declined.isError()).isTrue();
    assertThat(((McpSchema.TextContent) declined.content().getFirst()).text())
        .isEqualTo("the user declined to run tool `forget` (asked: Forget Bob?); it did not run");

    assertThat(asked).containsExactly("Forget Bob?", "Forget Bob?");
  }

  @Test
  void aScriptGetsTheValueTheUserEntered() {
    answer =
        new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("name", "Ada"));

    McpSchema.CallToolResult renamed =
        client.callTool(McpSchema.CallToolRequest.builder("rename").arguments(Map.of()).build());

    assertThat(renamed.isError()).isFalse();
    assertThat(renamed.structuredContent()).isEqualTo(Map.of("action", "accept", "name", "Ada"));
    assertThat(asked).containsExactly("New name?");
  }

  /** Waits up to five seconds for {@code list} to hold {@code size} elements. */
  private static void awaitSize(List<?> list, int size) {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (list.size() < size && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    assertThat(list).as("notifications received").hasSizeGreaterThanOrEqualTo(size);
  }

  private void callGreet() {
    McpSchema.CallToolResult greeting =
        client.callTool(
            McpSchema.CallToolRequest.builder("greet").arguments(Map.of("name", "Ada")).build());
    assertThat(greeting.isError()).isFalse();
  }
}
