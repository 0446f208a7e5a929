package dev.svc.server;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
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

    /** Not complete by the deadline. */
    record TooSlow() implements Outcome {}

    /** Not a valid HTTP body (a bad chunk size, say). */
    record Malformed(String reason) implements Outcome {}

    /** The client closed the connection before sending it all. */
    record Gone() implements Outcome {}
  }

  static Outcome read(Request request, int maxBytes, Duration deadline) {
    long declared = request.getLength();
    if (declared > maxBytes) {
      return new Outcome.TooLarge();
    }
    AtomicBoolean late = new AtomicBoolean();
    Scheduler.Task timer = failAfter(request, deadline, late);
    try (InputStream in = Content.Source.asInputStream(request)) {
      if (declared >= 0) {
        byte[] bytes = new byte[(int) declared];
        int read = in.readNBytes(bytes, 0, bytes.length);
        return read == bytes.length
            ? new Outcome.Received(bytes)
            : new Outcome.Received(java.util.Arrays.copyOf(bytes, read));
      }
      byte[] bytes = in.readNBytes(maxBytes + 1);
      return bytes.length > maxBytes ? new Outcome.TooLarge() : new Outcome.Received(bytes);
    } catch (IOException | RuntimeException e) {
      if (late.get()) {
        return new Outcome.TooSlow();
      }
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof HttpException http) {
          return new Outcome.Malformed(String.valueOf(http.getReason()));
        }
      }
      return new Outcome.Gone();
    } finally {
      timer.cancel();
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
