package dev.svc.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Reads a request's body within the size cap and the body deadline ({@code
 * server.limits.body_timeout}), and after a refusal drops what the client still sends, so that it
 * reads the answer instead of a connection reset.
 */
final class RequestBody {
  private RequestBody() {}

  /** How long, at most, the rest of a refused body is read and dropped before the close. */
  static final Duration DISCARD_TIME = Duration.ofSeconds(3);

  /** How much, at most, of a refused body is read and dropped before the close. */
  static final long DISCARD_BYTES = 64L * 1024 * 1024;

  /** What reading the body came to. */
  sealed interface Outcome {
    /** The whole body. */
    record Received(byte[] bytes) implements Outcome {}

    /** Larger than the cap. */
    record TooLarge() implements Outcome {}

    /** No room left in the memory all bodies being received share ({@link BodyMemory}). */
    record NoMemory() implements Outcome {}

    /** Not complete by the deadline. */
    record TooSlow() implements Outcome {}

    /** Not a valid HTTP body (a bad chunk size, say). */
    record Malformed(String reason) implements Outcome {}

    /** The client closed the connection before sending it all. */
    record Gone() implements Outcome {}
  }

  /** The most a body buffer starts with, whatever its {@code Content-Length} says. */
  static final int FIRST_BYTES = 16 * 1024;

  /** {@link #read(Request, int, Duration, BodyMemory.Hold)} for a small read outside any budget. */
  static Outcome read(Request request, int maxBytes, Duration deadline) {
    return read(request, maxBytes, deadline, BodyMemory.Hold.UNCOUNTED);
  }

  /**
   * Reads the body, its buffer growing as the bytes arrive (a {@code Content-Length} is a promise,
   * not bytes: it sizes the buffer at most {@link #FIRST_BYTES} ahead of them), each growth taken
   * from {@code hold}.
   */
  static Outcome read(Request request, int maxBytes, Duration deadline, BodyMemory.Hold hold) {
    long declared = request.getLength();
    if (declared > maxBytes) {
      return new Outcome.TooLarge();
    }
    Buffer body = new Buffer(declared, maxBytes, hold);
    if (!body.started()) {
      return new Outcome.NoMemory();
    }
    // The body of a small request usually came with its headers: take what is there without a
    // timer; only a body still on its way is read with the deadline armed.
    while (true) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        return readRest(request, body, deadline);
      }
      if (Content.Chunk.isFailure(chunk)) {
        return failed(chunk.getFailure(), false);
      }
      Outcome refused = body.add(chunk.getByteBuffer());
      boolean last = chunk.isLast();
      chunk.release();
      if (refused != null) {
        return refused;
      }
      if (last) {
        return new Outcome.Received(body.bytes());
      }
    }
  }

  private static Outcome readRest(Request request, Buffer body, Duration deadline) {
    AtomicBoolean late = new AtomicBoolean();
    Scheduler.Task timer = failAfter(request, deadline, late);
    byte[] piece = new byte[16 * 1024];
    try (InputStream in = Content.Source.asInputStream(request)) {
      int n;
      while ((n = in.read(piece)) >= 0) {
        Outcome refused = body.add(ByteBuffer.wrap(piece, 0, n));
        if (refused != null) {
          return refused;
        }
      }
      return new Outcome.Received(body.bytes());
    } catch (IOException | RuntimeException e) {
      return failed(e, late.get());
    } finally {
      timer.cancel();
    }
  }

  private static Outcome failed(Throwable failure, boolean late) {
    if (late) {
      return new Outcome.TooSlow();
    }
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof HttpException http) {
        return new Outcome.Malformed(String.valueOf(http.getReason()));
      }
    }
    return new Outcome.Gone();
  }

  /** The bytes read so far, within the cap and the hold's share of the body memory. */
  private static final class Buffer {
    private final int max;
    private final long declared;
    private final BodyMemory.Hold hold;
    private byte[] bytes;
    private int length;

    Buffer(long declared, int max, BodyMemory.Hold hold) {
      this.max = max;
      this.declared = declared;
      this.hold = hold;
      int first = (int) Math.min(Math.min(declared >= 0 ? declared : 1024, max), FIRST_BYTES);
      this.bytes = hold.reserve(first) ? new byte[first] : null;
    }

    /** False when the memory had no room even for the first bytes. */
    boolean started() {
      return bytes != null;
    }

    /** Appends; the refusal when the body would pass the cap or the memory, else null. */
    Outcome add(ByteBuffer piece) {
      int n = piece.remaining();
      if (n > max - length) {
        return new Outcome.TooLarge();
      }
      if (length + n > bytes.length) {
        long grown = Math.min(max, Math.max(length + n, 2L * bytes.length));
        if (declared >= length + n) {
          grown = Math.min(grown, declared); // the exact size when it is known: no copy to trim
        }
        if (!hold.reserve(grown - bytes.length)) {
          return new Outcome.NoMemory();
        }
        bytes = Arrays.copyOf(bytes, (int) grown);
      }
      piece.get(bytes, length, n);
      length += n;
      return null;
    }

    byte[] bytes() {
      return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }
  }

  /**
   * Reads and drops the rest of a body the server refused, for at most {@link #DISCARD_TIME} and
   * {@link #DISCARD_BYTES}: closing a socket with unread data makes the kernel send a reset, and a
   * client still sending would lose the answer already on its way.
   */
  static void discard(Request request) {
    AtomicBoolean late = new AtomicBoolean();
    Scheduler.Task timer = failAfter(request, DISCARD_TIME, late);
    byte[] sink = new byte[16 * 1024];
    long dropped = 0;
    try (InputStream in = Content.Source.asInputStream(request)) {
      int n;
      while (dropped < DISCARD_BYTES && (n = in.read(sink)) >= 0) {
        dropped += n;
      }
    } catch (IOException | RuntimeException e) {
      // the client went away, sent garbage or took too long: the connection closes either way
    } finally {
      timer.cancel();
    }
  }

  private static Scheduler.Task failAfter(Request request, Duration after, AtomicBoolean late) {
    return request
        .getComponents()
        .getScheduler()
        .schedule(
            () -> {
              late.set(true);
              request.fail(new TimeoutException("request body not received in time"));
            },
            after.toMillis(),
            TimeUnit.MILLISECONDS);
  }
}
