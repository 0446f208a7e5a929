package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Headers;
import dev.svc.protocol.HttpCall;
import dev.svc.protocol.HttpReply;
import dev.svc.testing.WeatherProject;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The MCP transport without HTTP: which runtime serves a request. */
class McpServerTest {
  @RegisterExtension static final WeatherProject project = new WeatherProject();

  private final AtomicInteger reads = new AtomicInteger();
  private final McpSessions sessions = new McpSessions(new SessionTokens(new byte[32]));
  private final McpServer server =
      new McpServer(
          () -> {
            reads.incrementAndGet();
            return project.runtime();
          },
          sessions,
          new McpServer.Capabilities(false));

  private String post(String body) {
    McpSession session = sessions.find(sessions.begin(ProtocolVersions.PREFERRED)).orElseThrow();
    HttpReply reply =
        server.handle(
            new HttpCall(
                "POST",
                "/mcp",
                Headers.of(
                    "Content-Type",
                    "application/json",
                    "Accept",
                    "application/json, text/event-stream",
                    McpServer.SESSION_HEADER,
                    session.id()),
                body.getBytes(StandardCharsets.UTF_8),
                () -> "http://localhost",
                "rid-1",
                ""));
    return new String(((HttpReply.Body) reply).body(), StandardCharsets.UTF_8);
  }

  @Test
  void aToolCallReadsTheCurrentRuntimeOnce_soThatAReloadCannotSplitIt() {
    String response =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"weather\",\"arguments\":{\"city\":\"Paris\"}}}");

    assertThat(response).contains("\"forecast\":\"sunny\"");
    assertThat(reads).hasValue(1);
  }

  @Test
  void aListReadsTheCurrentRuntimeOnce() {
    assertThat(post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}"))
        .contains("\"name\":\"weather\"");
    assertThat(reads).hasValue(1);
  }
}
