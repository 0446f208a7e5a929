package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

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
  void httpsChecksTheCertificateAgainstTheUrlsHostNotTheAddress(@TempDir Path dir)
      throws Exception {
    Path keystore = dir.resolve("hooks.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "hooks",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=hooks.test",
                "-ext",
                "SAN=dns:hooks.test",
                "-validity",
                "2",
                "-keystore",
                keystore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                "changeit")
            .redirectErrorStream(true)
            .start();
    String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(keytool.waitFor()).as(output).isZero();
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(keystore)) {
      store.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, "changeit".toCharArray());
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext serverContext = SSLContext.getInstance("TLS");
    serverContext.init(keys.getKeyManagers(), null, null);
    SSLContext clientContext = SSLContext.getInstance("TLS");
    clientContext.init(null, trust.getTrustManagers(), null);

    HttpsServer server = HttpsServer.create(new InetSocketAddress(LOOPBACK, 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(serverContext));
    List<String> hosts = new java.util.concurrent.CopyOnWriteArrayList<>();
    server.createContext(
        "/",
        exchange -> {
          hosts.add(exchange.getRequestHeaders().getFirst("Host"));
          exchange.getRequestBody().readAllBytes();
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    server.start();
    try {
      int port = server.getAddress().getPort();
      int status =
          PushPost.post(
              URI.create("https://hooks.test:" + port + "/hook"),
              List.of(LOOPBACK),
              List.of(),
              new byte[] {'{', '}'},
              CONNECT,
              Duration.ofSeconds(10),
              clientContext.getSocketFactory());
      assertThat(status).isEqualTo(204);
      assertThat(hosts).containsExactly("hooks.test:" + port);

      assertThatThrownBy(() ->
              PushPost.post(
                  URI.create("https://other.test:" + port + "/hook"),
                  List.of(LOOPBACK),
                  List.of(),
                  new byte[] {'{', '}'},
                  CONNECT,
                  Duration.ofSeconds(10),
                  clientContext.getSocketFactory()))
          .as("a certificate for another name is refused")
          .isInstanceOf(javax.net.ssl.SSLHandshakeException.class);
      assertThat(hosts).hasSize(1);
    } finally {
      server.stop(0);
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
