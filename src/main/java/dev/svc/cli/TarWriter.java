package dev.svc.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes a POSIX tar stream that is the same bytes for the same entries: owner and group 0, one
 * fixed modification time, no user or group names. Names longer than the ustar fields allow get a
 * PAX {@code path} record. Only directories and regular files: image layers need no links.
 */
final class TarWriter implements AutoCloseable {
  /** The modification time of every entry: 1970-01-01T00:00:01Z, as Jib writes its layers. */
  static final long MTIME_SECONDS = 1;

  private static final int BLOCK = 512;
  private final OutputStream out;

  TarWriter(OutputStream out) {
    this.out = out;
  }

  /**
   * A directory entry; {@code name} without a trailing slash, relative (no leading slash), owned by
   * uid and gid {@code owner}.
   */
  void directory(String name, int mode, int owner) throws IOException {
    header(name + "/", mode, 0, '5', owner);
  }

  void file(String name, int mode, byte[] content) throws IOException {
    header(name, mode, content.length, '0', 0);
    out.write(content);
    pad(content.length);
  }

  void file(String name, int mode, long size, InputStream content) throws IOException {
    header(name, mode, size, '0', 0);
    long copied = content.transferTo(out);
    if (copied != size) {
      throw new IOException(name + " changed size while it was archived");
    }
    pad(size);
  }

  @Override
  public void close() throws IOException {
    out.write(new byte[BLOCK * 2]);
    out.close();
  }

  private void header(String name, int mode, long size, char type, int owner) throws IOException {
    byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
    String shortName = name;
    String prefix = "";
    if (nameBytes.length > 100) {
      int split = splitPoint(name);
      if (split > 0) {
        prefix = name.substring(0, split);
        shortName = name.substring(split + 1);
      } else {
        pax(name);
        shortName = "././@LongName";
      }
    }
    byte[] header = new byte[BLOCK];
    put(header, 0, 100, shortName.getBytes(StandardCharsets.UTF_8));
    octal(header, 100, 8, mode);
    octal(header, 108, 8, owner);
    octal(header, 116, 8, owner);
    octal(header, 124, 12, size);
    octal(header, 136, 12, MTIME_SECONDS);
    Arrays.fill(header, 148, 156, (byte) ' ');
    header[156] = (byte) type;
    put(header, 257, 6, "ustar\0".getBytes(StandardCharsets.US_ASCII));
    put(header, 263, 2, "00".getBytes(StandardCharsets.US_ASCII));
    octal(header, 329, 8, 0);
    octal(header, 337, 8, 0);
    put(header, 345, 155, prefix.getBytes(StandardCharsets.UTF_8));
    long sum = 0;
    for (byte b : header) {
      sum += b & 0xff;
    }
    byte[] checksum = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(checksum, 0, header, 148, 8);
    out.write(header);
  }

  /** Where a long name splits into ustar's prefix (≤ 155 bytes) and name (≤ 100), or -1. */
  private static int splitPoint(String name) {
    for (int i = name.length() - 1; i > 0; i--) {
      if (name.charAt(i) == '/') {
        int prefixBytes = name.substring(0, i).getBytes(StandardCharsets.UTF_8).length;
        int nameBytes = name.substring(i + 1).getBytes(StandardCharsets.UTF_8).length;
        if (prefixBytes <= 155 && nameBytes <= 100 && nameBytes > 0) {
          return i;
        }
        if (nameBytes > 100) {
          return -1;
        }
      }
    }
    return -1;
  }

  private void pax(String name) throws IOException {
    String body = " path=" + name + "\n";
    int length = body.getBytes(StandardCharsets.UTF_8).length;
    int total = length + String.valueOf(length).length();
    if (String.valueOf(total).length() != String.valueOf(length).length()) {
      total++;
    }
    byte[] record = (total + body).getBytes(StandardCharsets.UTF_8);
    header("././@PaxHeader", 0644, record.length, 'x', 0);
    out.write(record);
    pad(record.length);
  }

  private void pad(long size) throws IOException {
    int rest = (int) (size % BLOCK);
    if (rest != 0) {
      out.write(new byte[BLOCK - rest]);
    }
  }

  private static void put(byte[] header, int offset, int length, byte[] value) {
    if (value.length > length) {
      throw new IllegalArgumentException("tar field too long: " + new String(value));
    }
    System.arraycopy(value, 0, header, offset, value.length);
  }

  private static void octal(byte[] header, int offset, int length, long value) {
    String text = Long.toOctalString(value);
    String padded = "0".repeat(Math.max(0, length - 1 - text.length())) + text;
    put(header, offset, length - 1, padded.getBytes(StandardCharsets.US_ASCII));
  }
}
