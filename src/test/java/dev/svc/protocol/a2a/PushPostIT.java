package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One push POST over a real socket to local receivers: what it sends, and where it stops. */
@Timeout(60)
class PushPostIT {
  static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
  static final Duration CONNECT = Duration.ofSeconds(5);
  static final Duration SHORT = Duration.ofMillis(300);

  static int post(URI uri, List<InetAddress> addresses, byte[] body, Duration timeout)
      throws IOException {
    return PushPost.post(
        uri,
        addresses,
        List.of(Map.entry("X-A2A-Notification-Token", "tok")),
        body,
        CONNECT,
        timeout,
        (SSLSocketFactory) SSLSocketFactory.getDefault());
  }

  @Test
  void theRequestCarriesTheHostTheHeadersAndTheBody() throws Exception {
    try (PushReceiver receiver = PushReceiver.start("127.0.0.1", 0)) {
      URI uri = URI.create("http://hooks.test:" + receiver.port() + "/hook?x=1");
      int status =
          post(
              uri,
              List.of(LOOPBACK),
              "{\"task\":{}}".getBytes(StandardCharsets.UTF_8),
              Duration.ofSeconds(10));

      assertThat(status).isEqualTo(200);
      PushReceiver.Received received = receiver.await();
      assertThat(received.path()).isEqualTo("/hook?x=1");
      assertThat(received.header("Host")).isEqualTo("hooks.test:" + receiver.port());
      assertThat(received.header("X-A2A-Notification-Token")).isEqualTo("tok");
      assertThat(received.header("Content-Type")).isEqualTo("application/json");
      assertThat(received.body().toString()).isEqualTo("{\"task\":{}}");
    }
  }

  @Test
  void aRedirectIsTheAnswerAndItsTargetIsNeverCalled() throws Exception {
    try (PushReceiver target = PushReceiver.start("127.0.0.1", 0);
        PushReceiver redirecting =
            PushReceiver.start("127.0.0.1", 0, 302, Map.of("Location", target.url() + "/x"))) {
      int status =
          post(
              URI.create(redirecting.url() + "/hook"),
              List.of(LOOPBACK),
              new byte[] {'{', '}'},
              Duration.ofSeconds(10));

      assertThat(status).isEqualTo(302);
      assertThat(redirecting.received()).hasSize(1);
      assertThat(target.received()).isEmpty();
    }
  }

  @Test
  void theNextAddressIsTriedWhenOneRefusesTheConnection() throws Exception {
    try (PushReceiver receiver = PushReceiver.start("127.0.0.1", 0)) {
      // nothing listens on 127.0.0.2 at the receiver's port
      int status =
          post(
              URI.create("http://hooks.test:" + receiver.port() + "/"),
              List.of(InetAddress.ofLiteral("127.0.0.2"), LOOPBACK),
              new byte[] {'{', '}'},
              Duration.ofSeconds(10));
      assertThat(status).isEqualTo(200);
      assertThat(receiver.received()).hasSize(1);
    }
  }

  @Test
  void aReceiverThatNeverAnswersIsGivenUpAtTheDeadline() throws Exception {
    try (ServerSocket silent = new ServerSocket()) {
      silent.bind(new InetSocketAddress(LOOPBACK, 0));
      List<Socket> accepted = acceptForever(silent, false);
      assertThatThrownBy(() ->
              post(
                  URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/"),
                  List.of(LOOPBACK),
                  new byte[] {'{', '}'},
                  SHORT))
          .isInstanceOf(IOException.class);
      closeAll(accepted);
    }
  }

  @Test
  void aReceiverThatNeverReadsABigBodyIsCutOffAtTheDeadline() throws Exception {
    try (ServerSocket deaf = new ServerSocket()) {
      deaf.setReceiveBufferSize(4096);
      deaf.bind(new InetSocketAddress(LOOPBACK, 0));
      List<Socket> accepted = acceptForever(deaf, false);
      byte[] big = new byte[64 * 1024 * 1024]; // far more than socket buffers hold
      assertThatThrownBy(() ->
              post(
                  URI.create("http://127.0.0.1:" + deaf.getLocalPort() + "/"),
                  List.of(LOOPBACK),
                  big,
                  SHORT))
          .isInstanceOf(IOException.class);
      closeAll(accepted);
    }
  }

  @Test
  void anAnswerThatIsNotHttpIsAFailure() throws Exception {
    try (ServerSocket server = new ServerSocket()) {
      server.bind(new InetSocketAddress(LOOPBACK, 0));
      List<Socket> accepted = acceptForever(server, true);
      assertThatThrownBy(() ->
              post(
                  URI.create("http://127.0.0.1:" + server.getLocalPort() + "/"),
                  List.of(LOOPBACK),
                  new byte[] {'{', '}'},
                  Duration.ofSeconds(10)))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("not HTTP");
      closeAll(accepted);
    }
  }

  @Test
  void headerValuesWithLineBreaksAreNeverWritten() {
    assertThatThrownBy(() ->
            PushPost.head(
                URI.create("http://h/"),
                List.of(Map.entry("X-A2A-Notification-Token", "t\r\nX-Evil: 1")),
                2))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Accepts connections on a virtual thread; {@code garbage}: answers each with non-HTTP text. */
  private static List<Socket> acceptForever(ServerSocket server, boolean garbage) {
    List<Socket> accepted = new java.util.concurrent.CopyOnWriteArrayList<>();
    Thread.ofVirtual()
        .start(() -> {
          try {
            while (true) {
              Socket socket = server.accept();
              accepted.add(socket);
              if (garbage) {
                socket
                    .getOutputStream()
                    .write("SSH-2.0-OpenSSH\r\n".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
              }
            }
          } catch (IOException e) {
            // the server socket closed: the test is over
          }
        });
    return accepted;
  }

  private static void closeAll(List<Socket> sockets) throws IOException {
    for (Socket socket : new ArrayList<>(sockets)) {
      socket.close();
    }
  }
}
