package dev.svc.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The answer of a canceled call stops being read, even while the provider keeps sending. */
class AnswerDeadlineTest {
  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  /**
   * A provider that always has another byte ready: its stream never waits, so never sees a flag.
   */
  static final class Endless extends InputStream {
    final AtomicBoolean closed = new AtomicBoolean();

    @Override
    public int read() {
      return ' ';
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
      java.util.Arrays.fill(buffer, offset, offset + length, (byte) ' ');
      return length;
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }

  @Test
  void aCanceledCallsAnswerIsClosedAtTheNextReadThoughBytesKeepComing() throws Exception {
    Endless provider = new Endless();
    try (AnswerDeadline answer =
        new AnswerDeadline(
            provider, Duration.ofSeconds(30), Duration.ofMinutes(5), System.nanoTime())) {
      assertThat(answer.read(new byte[16], 0, 16)).isEqualTo(16);

      Thread.currentThread().interrupt(); // the task was canceled

      assertThatThrownBy(() -> answer.read(new byte[16], 0, 16))
          .isInstanceOf(InterruptedIOException.class);
      assertThatThrownBy(answer::read).isInstanceOf(InterruptedIOException.class);
      assertThat(provider.closed).isTrue(); // the connection goes, and the provider sees it
      assertThat(Thread.currentThread().isInterrupted()).isTrue(); // the caller still sees why
    }
  }
}
