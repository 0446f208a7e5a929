package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.RunningProject;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What open {@code subscriptions/listen} streams (MCP 2026-07-28) may hold together: each keeps its
 * filter as long as it is open, and one client may open hundreds.
 */
class McpListenBudgetIT {
  private static final String PROJECT =
      """
      == .svc
      name: listening
      == app/resources/guide/config.terse
      description: A guide.
      uri: docs://guide
      text: Hello.
      """;

  @TempDir Path dir;

  @Test
  void listenStreamsNamingTheMostUrisAreRefusedPastTheirShareOfTheHeap() throws Exception {
    // a stream naming 1,000 URIs of 2,000 characters holds ~4 MB while open; a thirty-second of the
    // heap fits a few of them, and before, none was ever refused
    long perStream = 1000L * (2 * 2_010 + 96);
    int most = (int) (Runtime.getRuntime().maxMemory() / 32 / perStream) + 2;
    List<Socket> open = new ArrayList<>();
    try (Instance instance = RunningProject.start(dir, PROJECT)) {
      String refused = null;
      for (int k = 0; k < most && refused == null; k++) {
        Socket socket = listen(instance.port(), k);
        open.add(socket);
        String head = readHead(socket.getInputStream());
        if (!head.startsWith("HTTP/1.1 200")) {
          refused = head;
        }
      }
      assertThat(refused).as("a listen stream refused within %d", most).isNotNull();
      assertThat(refused).startsWith("HTTP/1.1 503").containsIgnoringCase("Retry-After");
    } finally {
      for (Socket socket : open) {
        socket.close();
      }
    }
  }

  private static Socket listen(int port, int id) throws Exception {
    StringBuilder uris = new StringBuilder();
    String stem = "docs://guide/" + "y".repeat(2_000);
    for (int i = 0; i < 1000; i++) {
      uris.append(i == 0 ? "" : ",").append('"').append(stem).append(id).append('-').append(i);
      uris.append('"');
    }
    byte[] body =
        ("{\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":"
                + "{\"resourceSubscriptions\":["
                + uris
                + "]},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}")
            .getBytes(StandardCharsets.UTF_8);
    Socket socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(30_000);
    socket
        .getOutputStream()
        .write(
            ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Accept: text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                    + "Mcp-Method: subscriptions/listen\r\nContent-Length: "
                    + body.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().write(body);
    socket.getOutputStream().flush();
    return socket;
  }

  /** The status line and headers of the response, up to the blank line after them. */
  private static String readHead(InputStream in) throws Exception {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.append((char) b);
    }
    return head.toString();
  }
}
