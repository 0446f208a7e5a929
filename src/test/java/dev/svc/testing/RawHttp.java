package dev.svc.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One HTTP/1.1 connection over a plain socket, for tests of what ordinary clients never send: slow,
 * malformed or oversized requests. Reads answers by hand so that a reset, a close or a status can
 * each be asserted.
 */
public final class RawHttp implements AutoCloseable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  private RawHttp(Socket socket) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  public static RawHttp connect(int port) {
    return connect(null, InetAddress.ofLiteral("127.0.0.1"), port);
  }

  /**
   * A connection from the local address {@code from} (one of this machine's; {@code null}: any) to
   * {@code to}.
   */
  public static RawHttp connect(InetAddress from, InetAddress to, int port) {
    try {
      Socket socket = new Socket();
      if (from != null) {
        socket.bind(new InetSocketAddress(from, 0));
      }
      socket.connect(new InetSocketAddress(to, port), 5000);
      socket.setSoTimeout(20_000);
      return new RawHttp(socket);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An answer: status, headers (lower-case names) and body. */
  public record Answer(int status, Map<String, String> headers, String body) {
    public Optional<String> header(String name) {
      return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }
  }

  public RawHttp send(String text) throws IOException {
    return send(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  public RawHttp send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
    return this;
  }

  /** Reads one answer (by {@code Content-Length}, or to the end of the stream). */
  public Answer read() throws IOException {
    String head = readHead();
    String[] lines = head.split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(
            lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).strip());
      }
    }
    byte[] body;
    if (headers.containsKey("content-length")) {
      body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
    } else if ("close".equalsIgnoreCase(headers.get("connection"))) {
      body = in.readAllBytes();
    } else {
      body = new byte[0];
    }
    return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
  }

  private String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new java.io.EOFException(
            "the connection closed before an answer (read: "
                + head.toString(StandardCharsets.UTF_8)
                + ")");
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  /**
   * Whether the server closed the connection within {@code within}: reads (and drops) until the end
   * of the stream or a reset; false when the connection is still open at the end.
   */
  public boolean closedWithin(Duration within) throws IOException {
    long deadline = System.nanoTime() + within.toNanos();
    byte[] sink = new byte[4096];
    while (System.nanoTime() < deadline) {
      socket.setSoTimeout(
          (int) Math.max(1, Duration.ofNanos(deadline - System.nanoTime()).toMillis()));
      try {
        if (in.read(sink) < 0) {
          return true;
        }
      } catch (SocketTimeoutException e) {
        return false;
      } catch (SocketException e) {
        return true; // reset
      }
    }
    return false;
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing a test socket
    }
  }
}
