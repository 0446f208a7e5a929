package dev.svc.protocol.a2a;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One HTTP/1.1 POST of a push notification to addresses already checked ({@link PushDestinations}).
 * It connects to those addresses itself — the JDK client would resolve the name again, and could
 * reach another address than the one checked — and speaks TLS with the URL's host name (SNI and
 * certificate check) for {@code https}. It reads only the status line: a redirect is an answer,
 * never followed. Every step is bounded: the connect by its timeout, the whole exchange by a
 * deadline after which the socket is closed, even while a write is blocked.
 */
final class PushPost {
  /** The longest status line read; a receiver that sends more is not an HTTP server. */
  static final int MAX_STATUS_LINE = 8 * 1024;

  private PushPost() {}

  /**
   * @param addresses where the URL's host resolved, each allowed; tried in order until one connects
   * @param headers extra headers (name, value), already checked to hold no line breaks
   * @param connectTimeout for each connection attempt
   * @param timeout for the rest: TLS, sending, and the status line
   * @return the HTTP status the receiver answered
   */
  static int post(
      URI uri,
      List<InetAddress> addresses,
      List<Map.Entry<String, String>> headers,
      byte[] body,
      Duration connectTimeout,
      Duration timeout,
      SSLSocketFactory tls)
      throws IOException {
    boolean https = uri.getScheme().equalsIgnoreCase("https");
    int port = uri.getPort() >= 0 ? uri.getPort() : https ? 443 : 80;
    Socket socket = connect(addresses, port, connectTimeout);
    long deadline = System.nanoTime() + timeout.toNanos();
    // closing the socket is the only way to end a write that the receiver never reads
    CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .execute(() -> closeQuietly(socket));
    try (socket) {
      socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
      Socket channel = socket;
      if (https) {
        SSLSocket ssl =
            (SSLSocket) tls.createSocket(socket, PushDestinations.host(uri), port, true);
        SSLParameters parameters = ssl.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        ssl.setSSLParameters(parameters);
        ssl.startHandshake();
        channel = ssl;
      }
      OutputStream out = new BufferedOutputStream(channel.getOutputStream());
      out.write(head(uri, headers, body.length).getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      return status(channel.getInputStream(), deadline);
    } catch (IOException e) {
      if (socket.isClosed() && System.nanoTime() - deadline >= 0) {
        throw new SocketTimeoutException("no answer within " + timeout.toMillis() + " ms");
      }
      throw e;
    }
  }

  private static Socket connect(List<InetAddress> addresses, int port, Duration timeout)
      throws IOException {
    IOException last = new IOException("no address to connect to");
    for (InetAddress address : addresses) {
      Socket socket = new Socket();
      try {
        socket.connect(new InetSocketAddress(address, port), (int) timeout.toMillis());
        return socket;
      } catch (IOException e) {
        closeQuietly(socket);
        last = e;
      }
    }
    throw last;
  }

  /** The request line and headers. */
  static String head(URI uri, List<Map.Entry<String, String>> headers, int length) {
    URI ascii = URI.create(uri.toASCIIString());
    String target =
        ascii.getRawPath() == null || ascii.getRawPath().isEmpty() ? "/" : ascii.getRawPath();
    if (ascii.getRawQuery() != null) {
      target += "?" + ascii.getRawQuery();
    }
    StringBuilder head = new StringBuilder(256);
    head.append("POST ").append(target).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(ascii.getHost());
    if (ascii.getPort() >= 0) {
      head.append(':').append(ascii.getPort());
    }
    head.append("\r\n");
    head.append("Content-Type: application/json\r\n");
    head.append("Content-Length: ").append(length).append("\r\n");
    head.append("User-Agent: svc-a2a-push\r\n");
    head.append("Connection: close\r\n");
    for (Map.Entry<String, String> header : headers) {
      if (!PushConfig.isHeaderSafe(header.getValue())) {
        throw new IllegalArgumentException("header " + header.getKey() + " holds a line break");
      }
      head.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
    }
    return head.append("\r\n").toString();
  }

  /** Reads the status line ({@code HTTP/1.1 204 No Content}) and nothing more. */
  private static int status(InputStream in, long deadline) throws IOException {
    StringBuilder line = new StringBuilder(64);
    while (true) {
      if (System.nanoTime() - deadline >= 0) {
        throw new SocketTimeoutException("the status line took too long");
      }
      int b = in.read();
      if (b < 0) {
        throw new IOException("the connection closed before an HTTP status line");
      }
      if (b == '\n') {
        break;
      }
      if (line.length() >= MAX_STATUS_LINE) {
        throw new IOException("the answer is not HTTP (no status line)");
      }
      line.append((char) b);
    }
    String[] parts = line.toString().strip().split(" ", 3);
    if (parts.length < 2
        || !parts[0].toUpperCase(Locale.ROOT).startsWith("HTTP/")
        || !parts[1].matches("[0-9]{3}")) {
      throw new IOException("the answer is not HTTP: " + abbreviated(line.toString()));
    }
    return Integer.parseInt(parts[1]);
  }

  private static String abbreviated(String text) {
    String printable = text.replaceAll("[^\\x20-\\x7e]", "?");
    return printable.length() > 40 ? printable.substring(0, 40) + "…" : printable;
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing is all that is left to do
    }
  }
}
