package dev.svc.connector;

import static dev.svc.testing.FakeRedisServer.ascii;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Deadline;
import dev.svc.compile.StatementFixture;
import dev.svc.model.ConnectorKind;
import dev.svc.testing.FakeRedisServer;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  private FakeRedisServer server;

  @AfterEach
  void stop() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  /**
   * A connector to a fake server: the handshake's commands ({@code HELLO}, {@code CLIENT}, {@code
   * SELECT}) get plausible answers, any other command {@code reply.apply(its name)}.
   */
  private Connector connectorTo(Function<String, byte[]> reply) throws IOException {
    stop(); // a test may try several servers in turn
    server = new FakeRedisServer(command -> Optional.of(reply.apply(command.getFirst())));
    return Connectors.open(server.adapter());
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
                "lost the connection to redis adapter `db` at 127.0.0.1:" + server.port())
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
