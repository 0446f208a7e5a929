package dev.svc.testing;

import dev.svc.connector.ResolvedAdapter;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A server on loopback speaking RESP that answers a connection's handshake ({@code HELLO}, {@code
 * CLIENT}, {@code SELECT}) plausibly and every other command with what a test scripts: lengths,
 * nesting and sizes no real Redis sends. A script answering empty sends nothing (a server that
 * holds its reply). Every command received is kept, its name upper-cased first.
 */
public final class FakeRedisServer implements AutoCloseable {
  private final ServerSocket server;
  private final Function<List<String>, Optional<byte[]>> reply;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  private final List<List<String>> received = new CopyOnWriteArrayList<>();

  /**
   * Listens on a free port.
   *
   * @param reply what to answer a command (its name upper-cased, then its arguments)
   */
  public FakeRedisServer(Function<List<String>, Optional<byte[]>> reply) throws IOException {
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.reply = reply;
    Thread.ofVirtual().start(this::accept);
  }

  /** A {@code redis} adapter pointing here, database 0. */
  public ResolvedAdapter adapter() {
    return new ResolvedAdapter(
        "db",
        ConnectorKind.REDIS,
        "redis://127.0.0.1:" + server.getLocalPort() + "/0",
        Map.of(),
        Path.of("."));
  }

  public int port() {
    return server.getLocalPort();
  }

  /** How many commands named {@code name} arrived so far, on any connection. */
  public long received(String name) {
    return received.stream().filter(c -> c.getFirst().equals(name)).count();
  }

  /** The bytes of {@code text}, for a script's answer. */
  public static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : accepted) {
      socket.close();
    }
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        accepted.add(socket);
        Thread.ofVirtual().start(() -> serve(socket));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      while (true) {
        List<String> command = readCommand(in);
        if (command.isEmpty()) {
          return;
        }
        received.add(command);
        Optional<byte[]> answer =
            switch (command.getFirst()) {
              case "HELLO" -> Optional.of(ascii("%1\r\n+proto\r\n:3\r\n"));
              case "CLIENT", "SELECT" -> Optional.of(ascii("+OK\r\n"));
              default -> reply.apply(command);
            };
        if (answer.isPresent()) {
          out.write(answer.get());
          out.flush();
        }
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
      String text = new String(argument, 0, length, StandardCharsets.UTF_8);
      arguments.add(i == 0 ? text.toUpperCase(Locale.ROOT) : text);
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
}
