package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Deadline;
import dev.svc.compile.StatementFixture;
import dev.svc.model.ConnectorKind;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The Redis connector against a fake server speaking RESP that answers the connection's handshake
 * and then each command with whatever a test scripts: lengths and counts no real Redis sends. Every
 * such reply must end the call with a tool error or an unavailable connector, never an error of the
 * JVM (the launcher runs with {@code -XX:+ExitOnOutOfMemoryError}: an {@code OutOfMemoryError} ends
 * the server).
 */
class HostileRedisServerIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  private ServerSocket server;

  @AfterEach
  void stop() throws IOException {
    if (server != null) {
      server.close();
    }
    for (Socket socket : accepted) {
      socket.close();
    }
  }

  /**
   * Listens on a free port: the handshake's commands ({@code HELLO}, {@code CLIENT}, {@code
   * SELECT}) get plausible answers, any other command {@code reply.apply(its name)}.
   */
  private Connector connectorTo(Function<String, byte[]> reply) throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual()
        .start(() -> {
          while (!server.isClosed()) {
            try {
              Socket socket = server.accept();
              accepted.add(socket);
              Thread.ofVirtual().start(() -> serve(socket, reply));
            } catch (IOException e) {
              return;
            }
          }
        });
    return Connectors.open(
        new ResolvedAdapter(
            "db",
            ConnectorKind.REDIS,
            "redis://127.0.0.1:" + server.getLocalPort() + "/0",
            Map.of(),
            Path.of(".")));
  }

  private static void serve(Socket socket, Function<String, byte[]> reply) {
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      while (true) {
        List<String> command = readCommand(in);
        if (command.isEmpty()) {
          return;
        }
        String name = command.getFirst().toUpperCase(Locale.ROOT);
        byte[] answer =
            switch (name) {
              case "HELLO" -> ascii("%1\r\n+proto\r\n:3\r\n");
              case "CLIENT", "SELECT" -> ascii("+OK\r\n");
              default -> reply.apply(name);
            };
        out.write(answer);
        out.flush();
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  /** One command the client sent, as RESP's array of bulk strings; empty at the end. */
  private static List<String> readCommand(InputStream in) throws IOException {
    String header = line(in);
    if (header == null) {
      return List.of();
    }
    int count = Integer.parseInt(header.substring(1));
    List<String> arguments = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int length = Integer.parseInt(line(in).substring(1));
      byte[] argument = in.readNBytes(length + 2);
      arguments.add(new String(argument, 0, length, StandardCharsets.UTF_8));
    }
    return arguments;
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != '\n') {
      if (b < 0) {
        return null;
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.US_ASCII);
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static JsonNode get(Connector connector) {
    return connector.execute(
        StatementFixture.compile(ConnectorKind.REDIS, "GETRANGE k 0 -1"),
        Map.of(),
        Deadline.after(TIMEOUT));
  }

  @Test
  void aWellFormedReplyIsRead() throws IOException {
    try (Connector connector = connectorTo(name -> ascii("*2\r\n$3\r\nabc\r\n:5\r\n"))) {
      assertThat(get(connector).toString()).isEqualTo("[\"abc\",5]");
    }
  }

  @Test
  void aBulkStringAnnouncedPastTheCeilingIsRefusedBeforeItsArrayIsMade() throws IOException {
    // before: Jedis made `new byte[2147483647]`: an OutOfMemoryError, which ends the server
    try (Connector connector = connectorTo(name -> ascii("$2147483647\r\n"))) {
      assertThatThrownBy(() -> get(connector))
          .isInstanceOf(ResultRefusedException.class)
          .hasMessageStartingWith("the result passed svc's ceiling of");
    }
  }

  @Test
  void anArrayAnnouncingMoreElementsThanTheCeilingHoldsIsRefused() throws IOException {
    // before: Jedis made `new ArrayList<>(2147483647)`: an OutOfMemoryError
    for (String header : List.of("*2147483647\r\n", "%1073741823\r\n", "~2147483647\r\n")) {
      try (Connector connector = connectorTo(name -> ascii(header))) {
        assertThatThrownBy(() -> get(connector))
            .as(header.strip())
            .isInstanceOf(ResultRefusedException.class)
            .hasMessageStartingWith("the result passed svc's ceiling of");
      }
    }
  }

  @Test
  void aReplyOfMillionsOfTinyElementsIsRefusedAsItArrivesNotBuiltFirst() throws IOException {
    // 500 arrays of 1,000 integers (2 MB of RESP, under the 4 MiB ceiling; ~50 MB as objects),
    // then the server holds the rest of the 1,000 it announced. Before, Jedis built them all and
    // waited for the rest until the deadline; now each element counts its overhead, and the
    // ceiling is passed after ~60,000 of them
    String inner = "*1000\r\n" + ":1\r\n".repeat(1000);
    byte[] reply = ascii("*1000\r\n" + inner.repeat(500));
    ResultMemory small = new ResultMemory(64 * ResultMemory.MIB, 4 * ResultMemory.MIB);
    try (Connector connector = connectorTo(name -> reply);
        ResultMemory.Account call = small.open()) {
      assertThatThrownBy(
              () -> ScopedValue.where(ResultMemory.CALL, call).call(() -> get(connector)))
          .isInstanceOf(ResultRefusedException.class)
          .hasMessageStartingWith("the result passed svc's ceiling of 4 MiB");
    }
  }

  @Test
  void negativeLengthsAreAMalformedReplyNotAnUnexpectedFailure() throws IOException {
    // before: NegativeArraySizeException and IllegalArgumentException, "failed unexpectedly"
    for (String reply : List.of("$-5\r\n", "*-2\r\n", "%-3\r\n", "$12x\r\n", "?\r\n")) {
      try (Connector connector = connectorTo(name -> ascii(reply))) {
        assertThatThrownBy(() -> get(connector))
            .as(reply.strip())
            .isInstanceOf(ConnectorUnavailableException.class)
            .hasMessageStartingWith(
                "lost the connection to redis adapter `db` at 127.0.0.1:" + server.getLocalPort())
            .hasMessageContaining("a reply that is not valid RESP");
      }
    }
  }

  @Test
  void endlesslyNestedArraysAreRefusedBeforeTheReaderRecursesThatDeep() throws IOException {
    // before: Jedis recursed once per level: a StackOverflowError, an error of the JVM
    byte[] nested = ascii("*1\r\n".repeat(250_000) + ":1\r\n");
    try (Connector connector = connectorTo(name -> nested)) {
      assertThatThrownBy(() -> get(connector))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessageContaining("a reply that is not valid RESP")
          .hasMessageContaining("nested deeper than");
    }
  }

  @Test
  void aServerThatNeverAnswersEndsTheCallAtItsDeadline() throws IOException {
    try (Connector connector = connectorTo(name -> new byte[0])) {
      long start = System.nanoTime();
      assertThatThrownBy(() ->
              connector.execute(
                  StatementFixture.compile(ConnectorKind.REDIS, "GETRANGE k 0 -1"),
                  Map.of(),
                  Deadline.after(Duration.ofSeconds(1))))
          .isInstanceOf(StatementFailedException.class)
          .hasMessageContaining("was abandoned");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
    }
  }

  @Test
  void aBigNumberOfThousandsOfDigitsIsRefusedNotParsed() throws IOException {
    // before: Jedis parsed it with new BigInteger(text), quadratic in the digits (1,000,000
    // digits took 20 s of CPU, past any deadline: a socket time-out does not stop a parse)
    byte[] big = ascii("(" + "9".repeat(200_000) + "\r\n");
    try (Connector connector = connectorTo(name -> big)) {
      assertThatThrownBy(() -> get(connector))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessageContaining("a reply that is not valid RESP")
          .hasMessageContaining("a big number of more than 1000 digits")
          .hasMessageNotContaining("999");
    }
  }

  @Test
  void aDoubleOrBooleanThatIsNotOneIsAMalformedReply() throws IOException {
    // before: NumberFormatException ("For input string: ...", the server's text), "failed
    // unexpectedly"
    for (String reply : List.of(",12abc\r\n", ",\r\n", "#x\r\n", ":12a\r\n")) {
      try (Connector connector = connectorTo(name -> ascii(reply))) {
        assertThatThrownBy(() -> get(connector))
            .as(reply.strip())
            .isInstanceOf(ConnectorUnavailableException.class)
            .hasMessageContaining("a reply that is not valid RESP");
      }
    }
  }
}
