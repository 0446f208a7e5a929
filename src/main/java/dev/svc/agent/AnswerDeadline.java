package dev.svc.agent;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A provider's answer that must keep coming: once its headers are in, the HTTP client's time-out no
 * longer applies, so a provider that sends headers and then nothing, or one byte a second, held its
 * task (and its place among the tasks that run at once) forever. This closes the answer when no
 * byte came for {@code idle}, or when it is not over {@code total} after the request was sent; the
 * reader's blocked read then fails, and {@link #expired()} says which limit was passed.
 *
 * <p>One daemon thread checks every answer being read a few times per {@code idle}; a close comes
 * between the limit and one check period after it.
 */
final class AnswerDeadline extends FilterInputStream {
  private static final ScheduledExecutorService CHECKS =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("svc-model-answer-deadline").factory());

  private final Duration idle;
  private final Duration total;
  private final long endNanos;
  private final ScheduledFuture<?> check;
  private volatile long lastByteNanos;
  private volatile String expired;

  /**
   * @param sentNanos when the request was sent ({@link System#nanoTime()}): {@code total} counts
   *     from there
   */
  AnswerDeadline(InputStream in, Duration idle, Duration total, long sentNanos) {
    super(in);
    this.idle = idle;
    this.total = total;
    this.endNanos = sentNanos + total.toNanos();
    this.lastByteNanos = System.nanoTime();
    long periodMillis = Math.clamp(idle.toMillis() / 4, 50, 1000);
    this.check =
        CHECKS.scheduleAtFixedRate(this::check, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  /** Which limit closed the answer, as the end of "{provider} …", once one has. */
  Optional<String> expired() {
    return Optional.ofNullable(expired);
  }

  @Override
  public int read() throws IOException {
    stopIfInterrupted();
    int b = super.read();
    lastByteNanos = System.nanoTime();
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    stopIfInterrupted();
    int n = super.read(buffer, offset, length);
    lastByteNanos = System.nanoTime();
    return n;
  }

  @Override
  public void close() throws IOException {
    check.cancel(false);
    super.close();
  }

  /**
   * Ends the read of a canceled call: the HTTP client's stream notices an interrupt only while it
   * waits for bytes, so a provider that keeps sending (a long answer, keep-alive ticks) was read on
   * to its end after its task was canceled.
   */
  private void stopIfInterrupted() throws IOException {
    if (Thread.currentThread().isInterrupted()) {
      close();
      throw new InterruptedIOException("the model call was interrupted");
    }
  }

  private void check() {
    long now = System.nanoTime();
    if (now - endNanos > 0) {
      expire("did not finish its answer within " + total.toSeconds() + " s");
    } else if (now - lastByteNanos > idle.toNanos()) {
      expire("stopped answering: nothing came for " + idle.toSeconds() + " s");
    }
  }

  private void expire(String why) {
    expired = why;
    ScheduledFuture<?> scheduled = check; // null only if this runs before the constructor ends
    if (scheduled != null) {
      scheduled.cancel(false);
    }
    try {
      in.close(); // wakes the read blocked on the HTTP client's queue
    } catch (IOException | RuntimeException e) {
      // the reader fails either way, and expired() says why
    }
  }
}
