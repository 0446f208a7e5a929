package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Request bodies many clients send at once, for real: svc runs as its own process with a 64 MiB
 * heap that exits on an {@code OutOfMemoryError}, as the launcher runs it. Before, each body's
 * buffer was made as large as its {@code Content-Length} said before a byte of it came, and nothing
 * bounded the bodies held together: 130 connections declaring 4 MiB and sending one byte ended the
 * process.
 */
class BodyMemoryIT {
  private static final int FOUR_MIB = 4 * 1024 * 1024;

  @TempDir Path dir;

  @Test
  void bodiesDeclaredOrSentAtOnceAreBoundedAndTheServerLivesOn() throws Exception {
    Path project =
        ProjectFixture.write(
            dir.resolve("project"),
            """
            == .svc
            name: bodies
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/echo/config.terse
            description: Says a text back.
            use: db
            statement: SELECT {{ inputs.text }} AS text
            inputs:
              text: {type: string, description: The text.}
            """);
    try (SvcProcess svc =
        SvcProcess.serving(
            dir,
            dir.resolve("run"),
            Map.of(),
            List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError"),
            "start",
            project.toString(),
            "-p",
            "0")) {
      URI base = URI.create(svc.baseUrl());
      McpHttpClient client = new McpHttpClient(svc.baseUrl());
      client.initialize();

      // 200 bodies that declare 4 MiB and send one byte: promises, not bytes
      List<Socket> promised = new ArrayList<>();
      try {
        for (int i = 0; i < 200; i++) {
          Socket socket = new Socket(base.getHost(), base.getPort());
          OutputStream out = socket.getOutputStream();
          out.write(head(base, FOUR_MIB));
          out.write('{');
          out.flush();
          promised.add(socket);
        }
        Thread.sleep(1_000);
        JsonNode echo = client.call("echo", "{\"text\": \"still here\"}");
        assertThat(echo.toString()).as(svc.err()).contains("still here");
      } finally {
        for (Socket socket : promised) {
          socket.close();
        }
      }

      // 24 bodies of 4 MiB sent whole, all at once, whose requests wait for their last byte:
      // the bodies' memory (an eighth of the heap, at least one largest body) takes some, the
      // others are refused with 503 and Retry-After while the ones taken are still held
      List<Future<String>> sent = new ArrayList<>();
      List<Socket> held = new ArrayList<>();
      try (ExecutorService pool = Executors.newFixedThreadPool(24)) {
        for (int i = 0; i < 24; i++) {
          Socket socket = new Socket(base.getHost(), base.getPort());
          held.add(socket);
          sent.add(pool.submit(() -> sendAllButTheLastByte(socket, base)));
        }
        List<String> answers = new ArrayList<>();
        for (Future<String> answer : sent) {
          answers.add(answer.get(60, TimeUnit.SECONDS));
        }
        List<String> refused = answers.stream().filter(a -> a.startsWith("HTTP/1.1 503")).toList();
        assertThat(refused).as(svc.err()).isNotEmpty();
        assertThat(refused)
            .allSatisfy(a -> {
              assertThat(a).containsIgnoringCase("Retry-After: 1");
              assertThat(a).contains("the request bodies being received fill the memory");
            });
        assertThat(answers)
            .as("the others are still waiting for their last byte")
            .contains("(no answer yet)");
      } finally {
        for (Socket socket : held) {
          socket.close();
        }
      }

      JsonNode after = client.call("echo", "{\"text\": \"and after\"}");
      assertThat(after.toString()).as(svc.err()).contains("and after");
      assertThat(svc.alive()).as(svc.err()).isTrue();
      assertThat(svc.stop()).isZero();
    }
  }

  /**
   * Sends a {@code tools/call} whose body is 4 MiB but for its last byte; returns the start of the
   * answer if one comes within two seconds, else {@code "(no answer yet)"}.
   */
  private static String sendAllButTheLastByte(Socket socket, URI base) throws IOException {
    String prefix =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
            + "\"arguments\":{\"text\":\"";
    String suffix = "\"}}}";
    byte[] body = new byte[FOUR_MIB];
    Arrays.fill(body, (byte) 'a');
    System.arraycopy(prefix.getBytes(StandardCharsets.UTF_8), 0, body, 0, prefix.length());
    System.arraycopy(
        suffix.getBytes(StandardCharsets.UTF_8), 0, body, FOUR_MIB - suffix.length(), 4);
    OutputStream out = socket.getOutputStream();
    try {
      out.write(head(base, FOUR_MIB));
      out.write(body, 0, FOUR_MIB - 1);
      out.flush();
    } catch (IOException e) {
      // refused and closed while sending: the answer may still be readable
    }
    socket.setSoTimeout(2_000);
    InputStream in = socket.getInputStream();
    byte[] answer = new byte[4096];
    int n;
    try {
      n = in.read(answer);
    } catch (SocketTimeoutException e) {
      return "(no answer yet)";
    }
    return n <= 0 ? "(closed)" : new String(answer, 0, n, StandardCharsets.UTF_8);
  }

  private static byte[] head(URI base, int length) {
    return ("POST /mcp HTTP/1.1\r\nHost: "
            + base.getHost()
            + ":"
            + base.getPort()
            + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream"
            + "\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: "
            + length
            + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }
}
