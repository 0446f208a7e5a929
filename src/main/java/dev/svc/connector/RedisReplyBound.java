package dev.svc.connector;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.util.function.LongSupplier;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Redis connections whose replies may hold at most the result ceiling in bytes. Jedis reads a reply
 * whole before svc sees it, and {@link RedisReadBounds} bounds how many elements a reply may have,
 * not how large they are: {@code LRANGE} of 40 elements of 5 MB each was 200 MB on the heap before
 * it could be counted, and two such calls ended a 512 MiB server. Here each reply is counted as it
 * is read, its bytes and an overhead for each value in it ({@link RespFrames}), and the read fails
 * past the ceiling asked when its command was sent: for a tool call, the ceiling of the call that
 * sent it ({@link ResultMemory#CALL}, else the process's); for svc's own state, the store's ({@link
 * StateConnections#redis}). The connection is dropped with the rest of the reply, and the call gets
 * the ceiling's refusal.
 *
 * <p>One value larger than the ceiling is refused before it is asked for ({@code STRLEN} in {@link
 * RedisReadBounds}): Jedis makes a value's array at its announced length before reading it. A value
 * announced past the ceiling anyway (a command not sized first, a server that lies), an aggregate
 * announcing more elements than the ceiling could hold, or nesting Jedis would recurse into until
 * its stack overflows, is refused from its header, before Jedis reads it ({@link RespFrames}). The
 * socket wrapped is the one Jedis's factory made, TLS already on it when the adapter asks for it,
 * so the bytes counted are RESP's.
 */
final class RedisReplyBound implements JedisSocketFactory {
  private final JedisSocketFactory sockets;
  private final LongSupplier ceiling;

  /**
   * @param ceiling the ceiling of the replies to a command sent now, asked on the sending thread
   *     each time one is sent
   */
  private RedisReplyBound(JedisSocketFactory sockets, LongSupplier ceiling) {
    this.sockets = sockets;
    this.ceiling = ceiling;
  }

  /** Sockets for tool calls: a reply under the ceiling of the call that sent its command. */
  static RedisReplyBound forCalls(JedisSocketFactory sockets) {
    return new RedisReplyBound(sockets, RedisReplyBound::callCeiling);
  }

  /**
   * Sockets for svc's own state ({@link StateConnections#redis}): each reply (each message of a
   * subscription) under {@code ceiling}, asked when a command is sent.
   */
  static RedisReplyBound forState(JedisSocketFactory sockets, LongSupplier ceiling) {
    return new RedisReplyBound(sockets, ceiling);
  }

  @Override
  public Socket createSocket() throws JedisConnectionException {
    return new BoundedSocket(sockets.createSocket(), ceiling);
  }

  /** The ceiling for the reply to a command sent now, on the sending thread. */
  private static long callCeiling() {
    return ResultMemory.CALL.isBound()
        ? ResultMemory.CALL.get().ceilingBytes()
        : ResultMemory.process().ceilingBytes();
  }

  /**
   * A socket that follows and counts each reply it reads ({@link RespFrames}); everything else is
   * the real one's.
   */
  private static final class BoundedSocket extends Socket implements ReplyCount {
    private final Socket socket;
    private final LongSupplier ceiling;
    private volatile long ceilingBytes; // set by the sending thread, read by the reading one
    private final RespFrames frames = new RespFrames(() -> ceilingBytes);
    private InputStream in;
    private OutputStream out;

    BoundedSocket(Socket socket, LongSupplier ceiling) {
      this.socket = socket;
      this.ceiling = ceiling;
      this.ceilingBytes = ceiling.getAsLong();
    }

    @Override
    public synchronized InputStream getInputStream() throws IOException {
      if (in == null) {
        in = ReplyCount.counting(socket.getInputStream(), this);
      }
      return in;
    }

    @Override
    public synchronized OutputStream getOutputStream() throws IOException {
      if (out == null) {
        out = ReplyCount.counting(socket.getOutputStream(), this);
      }
      return out;
    }

    @Override
    public void wrote() {
      ceilingBytes = ceiling.getAsLong();
      frames.wrote();
    }

    @Override
    public void read(byte[] buffer, int offset, int n) throws IOException {
      frames.read(buffer, offset, n);
    }

    /** Never called: every read is told with its bytes, which {@link RespFrames} counts. */
    @Override
    public void read(int n) {}

    @Override
    public void close() throws IOException {
      socket.close();
    }

    @Override
    public boolean isConnected() {
      return socket.isConnected();
    }

    @Override
    public boolean isBound() {
      return socket.isBound();
    }

    @Override
    public boolean isClosed() {
      return socket.isClosed();
    }

    @Override
    public boolean isInputShutdown() {
      return socket.isInputShutdown();
    }

    @Override
    public boolean isOutputShutdown() {
      return socket.isOutputShutdown();
    }

    @Override
    public void shutdownInput() throws IOException {
      socket.shutdownInput();
    }

    @Override
    public void shutdownOutput() throws IOException {
      socket.shutdownOutput();
    }

    @Override
    public void setSoTimeout(int timeout) throws SocketException {
      socket.setSoTimeout(timeout);
    }

    @Override
    public int getSoTimeout() throws SocketException {
      return socket.getSoTimeout();
    }

    @Override
    public void setTcpNoDelay(boolean on) throws SocketException {
      socket.setTcpNoDelay(on);
    }

    @Override
    public boolean getTcpNoDelay() throws SocketException {
      return socket.getTcpNoDelay();
    }

    @Override
    public void setKeepAlive(boolean on) throws SocketException {
      socket.setKeepAlive(on);
    }

    @Override
    public boolean getKeepAlive() throws SocketException {
      return socket.getKeepAlive();
    }

    @Override
    public void setSoLinger(boolean on, int linger) throws SocketException {
      socket.setSoLinger(on, linger);
    }

    @Override
    public int getSoLinger() throws SocketException {
      return socket.getSoLinger();
    }

    @Override
    public InetAddress getInetAddress() {
      return socket.getInetAddress();
    }

    @Override
    public InetAddress getLocalAddress() {
      return socket.getLocalAddress();
    }

    @Override
    public int getPort() {
      return socket.getPort();
    }

    @Override
    public int getLocalPort() {
      return socket.getLocalPort();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
      return socket.getRemoteSocketAddress();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
      return socket.getLocalSocketAddress();
    }

    @Override
    public String toString() {
      return socket.toString();
    }
  }
}
