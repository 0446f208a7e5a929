package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The bytes of a reply are counted as they arrive, against the ceiling of the call that asked. */
class RedisReplyBoundTest {
  /**
   * A server that answers each byte it receives with a RESP bulk string of {@code replyBytes} bytes
   * in all (the connection follows RESP's framing, {@link RespFrames}).
   */
  private static CompletableFuture<Void> answering(ServerSocket server, int replyBytes) {
    return CompletableFuture.runAsync(() -> {
      try (Socket peer = server.accept()) {
        InputStream in = peer.getInputStream();
        OutputStream out = peer.getOutputStream();
        while (in.read() >= 0) {
          out.write(bulk(replyBytes));
          out.flush();
        }
      } catch (IOException e) {
        // the client went away
      }
    });
  }

  /** {@code $<n>\r\n<n bytes>\r\n}, {@code total} bytes long. */
  private static byte[] bulk(int total) {
    int digits = 1;
    while (String.valueOf(total - digits - 5).length() != digits) {
      digits++;
    }
    String header = "$" + (total - digits - 5) + "\r\n"; // $, the digits, CRLF twice
    byte[] reply = new byte[total];
    Arrays.fill(reply, (byte) 'x');
    byte[] head = header.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(head, 0, reply, 0, head.length);
    reply[total - 2] = '\r';
    reply[total - 1] = '\n';
    return reply;
  }

  private static long readReply(Socket socket, int expected) throws IOException {
    socket.getOutputStream().write('?');
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[8192];
    long total = 0;
    while (total < expected) {
      int n = in.read(buffer, 0, buffer.length);
      if (n < 0) {
        break;
      }
      total += n;
    }
    return total;
  }

  @Test
  void aReplyPastTheCallsCeilingFailsAsItIsReadAndEachCommandStartsAnewCount() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      answering(server, 40 * 1024);
      RedisReplyBound bound = RedisReplyBound.forCalls(() -> newSocket(server.getLocalPort()));
      ResultMemory small = new ResultMemory(1024 * 1024, 64 * 1024);
      try (Socket socket = bound.createSocket();
          ResultMemory.Account call = small.open()) {
        ScopedValue.where(ResultMemory.CALL, call)
            .run(() -> {
              try {
                // 40 KiB per reply: under the 64 KiB ceiling each time, however many
                assertThat(readReply(socket, 40 * 1024)).isEqualTo(40 * 1024);
                assertThat(readReply(socket, 40 * 1024)).isEqualTo(40 * 1024);
              } catch (IOException e) {
                throw new AssertionError(e);
              }
            });
      }
    }
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      answering(server, 1024 * 1024);
      RedisReplyBound bound = RedisReplyBound.forCalls(() -> newSocket(server.getLocalPort()));
      ResultMemory small = new ResultMemory(4 * 1024 * 1024, 64 * 1024);
      try (ResultMemory.Account call = small.open()) {
        assertThatThrownBy(() ->
                ScopedValue.where(ResultMemory.CALL, call)
                    .call(() -> {
                      try (Socket socket = bound.createSocket()) {
                        return readReply(socket, 1024 * 1024);
                      }
                    }))
            .isInstanceOf(ReplyTooLargeException.class)
            .hasMessage("the reply passed 65536 bytes");
      }
    }
  }

  private static Socket newSocket(int port) {
    try {
      return new Socket(InetAddress.getLoopbackAddress(), port);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
