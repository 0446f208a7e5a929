package dev.svc.connector;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * What a bounded connection counts of the bytes it reads: told of every read and of every write (a
 * write is a new command, after which a new reply begins). Past its ceiling, {@link #read} throws,
 * inside the driver's read.
 */
interface ReplyCount {
  void read(int bytes) throws ReplyTooLargeException;

  /**
   * The {@code n} bytes of {@code buffer} from {@code offset} were read; by default only counted. A
   * connection that follows what it reads (the framing of RESP, {@link RespFrames}) looks at them
   * here, before the driver does, and may throw to stop the driver's read.
   */
  default void read(byte[] buffer, int offset, int n) throws IOException {
    read(n);
  }

  void wrote();

  /** {@code in}, with every byte it delivers told to {@code count}. */
  static InputStream counting(InputStream in, ReplyCount count) {
    return new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          count.read(new byte[] {(byte) b}, 0, 1);
        }
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
          count.read(buffer, offset, n);
        }
        return n;
      }
    };
  }

  /** {@code out}, with every write told to {@code count} before it is made. */
  static OutputStream counting(OutputStream out, ReplyCount count) {
    return new FilterOutputStream(out) {
      @Override
      public void write(int b) throws IOException {
        count.wrote();
        super.out.write(b);
      }

      @Override
      public void write(byte[] buffer, int offset, int length) throws IOException {
        count.wrote();
        super.out.write(buffer, offset, length);
      }
    };
  }
}
