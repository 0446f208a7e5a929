package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Deadline;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Statement;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A server that accepts connections but never answers: opening a connection must end at the call's
 * deadline, not hang (Connector/J has no login time-out of its own).
 */
class UnresponsiveServerIT {
  private ServerSocket server;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();

  @BeforeEach
  void listenWithoutAnswering() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual()
        .start(() -> {
          try {
            while (true) {
              accepted.add(server.accept());
            }
          } catch (IOException closed) {
            // the test is over
          }
        });
  }

  @AfterEach
  void stop() throws IOException {
    server.close();
    for (Socket socket : accepted) {
      socket.close();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ConnectorKind.class,
      names = {"POSTGRES", "MYSQL"})
  void checkAndCallsEndAtTheirDeadline(ConnectorKind kind) {
    int port = server.getLocalPort();
    String connectionString =
        kind == ConnectorKind.POSTGRES
            ? "postgresql://u@127.0.0.1:" + port + "/d"
            : "u:p@tcp(127.0.0.1:" + port + ")/d";
    String expected =
        "cannot connect to "
            + kind.wireName()
            + " adapter `db` at 127.0.0.1:"
            + port
            + ": timed out after 1 s";
    try (Connector connector =
        Connectors.open(
            new ResolvedAdapter(
                "db", kind, connectionString, Map.of("max_connections", "1"), Path.of(".")))) {
      assertThatThrownBy(() -> connector.check(Deadline.after(Duration.ofSeconds(1))))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessage(expected);
      assertThatThrownBy(() ->
              connector.execute(
                  new Statement.Sql("SELECT 1", "SELECT 1", List.of()),
                  Map.of(),
                  Deadline.after(Duration.ofSeconds(1))))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessage(expected);
    }
  }
}
