package dev.svc.agent;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A provider's answer, read up to a limit: a model server that sends more (a runaway generation, a
 * proxy's error page streamed without end) fails the model call when the limit is passed, instead
 * of filling the heap of the process that serves every other call.
 */
final class AnswerLimit extends FilterInputStream {
  /** Thrown, as an {@link IOException} the readers already handle, once the limit is passed. */
  static final class Exceeded extends IOException {
    private static final long serialVersionUID = 1L;

    Exceeded(long limit) {
      super("the answer is longer than " + limit / (1024 * 1024) + " MiB");
    }
  }

  private final long limit;
  private long read;

  AnswerLimit(InputStream in, long limit) {
    super(in);
    this.limit = limit;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      count(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = super.read(buffer, offset, length);
    if (n > 0) {
      count(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = super.skip(n);
    count(skipped);
    return skipped;
  }

  private void count(long n) throws Exceeded {
    read += n;
    if (read > limit) {
      throw new Exceeded(limit);
    }
  }
}
